'use strict';

// The customer-facing pages of the sandbox's card authentication.

const { escapeHtml } = require('./http');

function page(title, content) {
	return `<!doctype html>
<html><head><meta charset="utf-8"><title>Sandbox authentication</title></head>
<body style="font-family: sans-serif; max-width: 36em; margin: 3em auto">
<h1>${escapeHtml(title)}</h1>
${content}
</body></html>`;
}

/** `amount` as presented, e.g. "1.119 OMR". */
function authenticationPage(payment, amount, actionPath) {
	const buttons =
		payment.status === 'pending'
			? `<form method="POST" action="${escapeHtml(actionPath)}">
<button name="result" value="success">Authenticate: success</button>
<button name="result" value="failure">Authenticate: failure</button>
</form>`
			: '<p>This payment is already complete.</p>';
	return page(
		'Sandbox card authentication',
		`<p>Payment <code>${escapeHtml(payment.paymentId)}</code> of order <code>${escapeHtml(payment.orderId)}</code>: ${escapeHtml(amount)}.</p>
<p>Status: <strong>${escapeHtml(payment.status)}</strong></p>
${buttons}`,
	);
}

// Mirrors what the live gateway posts to the merchant after authentication.
function resultPage(record, redirectionUrl) {
	const fields = ['orderId', 'paymentId', 'status', 'amount', 'signature', 'timestamp']
		.map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(record[k] ?? '')}">`)
		.join('\n');
	return page(
		`Payment ${record.status}`,
		`<form method="POST" action="${escapeHtml(redirectionUrl)}">
${fields}
<button>Return to merchant</button>
</form>`,
	);
}

/** The hosted checkout page a `checkoutUrl` opens: the order and two buttons, the customer's two outcomes. */
function checkoutPage(order, amount) {
	const buttons =
		order === undefined
			? '<p>This link names no order of this client.</p>'
			: `<p>Order <code>${escapeHtml(order.orderId)}</code>: <strong>${escapeHtml(amount)}</strong>.</p>
<p>Paid with the sandbox's approved test card, Visa •••• 1111.</p>
<form method="POST">
<button name="result" value="success">Pay</button>
<button name="result" value="failure">Decline</button>
</form>`;
	return page('Sandbox hosted checkout', buttons);
}

module.exports = { authenticationPage, checkoutPage, resultPage };
