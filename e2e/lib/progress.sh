# Sourced by e2e/install-n8n.sh. n8n's first install runs for minutes with npm saying nothing (--loglevel=error):
# `with_progress <what> <folder> <command...>` runs the command and, every PROGRESS_SECONDS (30), says what it is doing,
# for how long so far, and how much the folder holds by now. It returns the command's status; Ctrl+C stops the command
# too.

# 75 → "1 min 15 s"
elapsed() {
	if [ "$1" -ge 60 ]; then echo "$(($1 / 60)) min $(($1 % 60)) s"; else echo "$1 s"; fi
}

# How much the folder holds, in MB or GB; nothing when it does not exist yet.
held() {
	local mb
	mb=$(du -sm "$1" 2>/dev/null | cut -f1) || return 0
	[ -n "$mb" ] || return 0
	if [ "$mb" -ge 1024 ]; then echo ", $((mb / 1024)).$(((mb % 1024) * 10 / 1024)) GB in $1"; else echo ", $mb MB in $1"; fi
}

with_progress() {
	local what=$1 folder=$2
	shift 2
	local every=${PROGRESS_SECONDS:-30} started=$SECONDS status=0
	"$@" &
	local pid=$!
	# A background command ignores Ctrl+C in a script: stopped with the script.
	trap 'kill "$pid" 2>/dev/null; exit 130' INT TERM
	local next=$((started + every))
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ "$SECONDS" -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
			echo "install-n8n: still $what: $(elapsed $((SECONDS - started))) so far$(held "$folder")"
			next=$((SECONDS + every))
		fi
	done
	wait "$pid" || status=$?
	trap - INT TERM
	return "$status"
}
