'use strict';

// Currency minor units, and amounts kept as integers of them so that partial
// refunds add up exactly.

const { bad } = require('./http');

// CLDR rounds these for display below their ISO 4217 minor unit; the gateway
// goes by ISO 4217.
const CLDR_BELOW_ISO = new Set(
	'AFN ALL COP HUF IDR IRR KPW LAK LBP MGA MMK PKR SLL SOS SYP YER'.split(' '),
);

/** Number of decimals the currency allows (ISO 4217). */
function fractionDigits(currency) {
	const code = currency.toUpperCase();
	if (code === 'IQD') return 3; // ISO 4217 gives 3, CLDR 0
	if (CLDR_BELOW_ISO.has(code)) return 2;
	return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
		.maximumFractionDigits;
}

/**
 * A positive JSON number as an integer count of the currency's minor units.
 * Read from the number's shortest decimal form, never through float
 * multiplication (1.005 * 1000 is 1004.9999999999999).
 */
function toMinorUnits(amount, currency) {
	const digits = fractionDigits(currency);
	const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(amount));
	if (!m) throw bad('amount must be a number greater than 0');
	const [, whole, fraction = '', exponent = '0'] = m;
	const decimals = fraction.length - Number(exponent);
	if (decimals > digits) {
		throw bad(`amount has more decimal places than ${currency.toUpperCase()} allows (${digits})`);
	}
	const minor = BigInt(whole + fraction) * 10n ** BigInt(digits - decimals);
	if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw bad('amount is too large');
	return Number(minor);
}

/**
 * How the gateway writes an amount: a string with three decimals for
 * three-decimal currencies ("1.000"), otherwise the number as sent. Dividing
 * exact integers rounds once, to the same double the sent number parsed to.
 */
function presentAmount(minor, currency) {
	const digits = fractionDigits(currency);
	if (digits !== 3) return minor / 10 ** digits;
	const text = String(minor).padStart(digits + 1, '0');
	return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

module.exports = { fractionDigits, toMinorUnits, presentAmount };
