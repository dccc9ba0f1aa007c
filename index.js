// n8n loads the node and credential through the "n8n" field of package.json; this entry point exists for tools that expect one.
module.exports = {};
