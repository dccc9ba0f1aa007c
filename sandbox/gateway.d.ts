export interface SandboxClient {
	clientId: string;
	clientSecret: string;
}

export type NotificationFormat = 'flat' | 'wrapped';

export interface SandboxOptions {
	/** 0 picks a free port. */
	port?: number;
	latencyMs?: number;
	/** Prefix of the short path family; '' serves it at the root. */
	shortPrefix?: string;
	clients?: { active?: Partial<SandboxClient>; inactive?: Partial<SandboxClient> };
	/** 64 hex characters. */
	cardEncryptionKey?: string;
	/** Where payment and refund notifications are POSTed; none are sent without it. */
	notificationUrl?: string | null;
	/** Default 'flat'. */
	notificationFormat?: NotificationFormat;
	/** Stray spaces around every string value, as in the provider's document. Default false. */
	notificationPadding?: boolean;
	/** How many API requests it serves at once; none (the default) means no limit. */
	capacity?: CapacityOptions | null;
}

export interface CapacityOptions {
	/** API requests served at once; null: no limit. */
	serves: number | null;
	/** What a request beyond that gets: a 429 at once ('refuse', the default) or a wait for a free place ('wait'). */
	beyond?: 'refuse' | 'wait';
	/** Retry-After of the 429: seconds or an HTTP date; null sends none. Default 1. */
	retryAfter?: number | string | null;
}

export type FaultKind =
	| 'status'
	| 'reset-before-body'
	| 'reset-after-body'
	| 'hang'
	| 'slow-body'
	| 'endless'
	| 'html'
	| 'failure-envelope'
	| 'echo'
	| 'echo-encoded'
	| 'redirect'
	| 'truncated-json'
	| 'empty'
	| 'many-values'
	| 'huge'
	| 'deep';

export interface LoggedRequest {
	time: string;
	method: string;
	/** As received, query included. */
	path: string;
	apiPath: string | null;
	family: 'short' | 'long' | null;
	headers: Record<string, string | string[] | undefined>;
	clientId: string | null;
	body: string;
	/** HTTP status sent; null when no answer was sent (a reset or a hang). */
	status: number | null;
	resCode: number | null;
	/** The injected fault this request got, 'capacity' when it was refused for want of a place, or null. */
	fault: FaultKind | 'capacity' | null;
	/**
	 * When the request arrived, in milliseconds of the process's monotonic clock (`performance.now()`): for
	 * durations and gaps measured where the client's own timers cannot blur them, not a date.
	 */
	receivedAtMs: number;
	/**
	 * When the exchange ended, on the same clock: the answer fully sent, or the connection closed before that (a
	 * hang ends when the client gives up). Null while it is still open.
	 */
	closedAtMs: number | null;
	/** Whether the whole answer was sent before the exchange ended; false when the client hung up first. */
	answered: boolean;
}

export interface FaultOptions {
	/** Substring of the request path (query included); '' matches every API request. */
	match?: string;
	/** Only requests of this method. */
	method?: string;
	/** Default 'status' (then `status` is required). */
	kind?: FaultKind;
	/**
	 * HTTP status ('status', 'html': default 502, 'echo': default 500, 'redirect': a 3xx, default 302) or resCode
	 * ('failure-envelope': default 503).
	 */
	status?: number;
	/** 'redirect': the Location sent; default the request's own path (a redirect loop). */
	location?: string;
	/** Default 1. */
	count?: number;
	/** Seconds or an HTTP date, sent as Retry-After ('status', 'html', 'failure-envelope'). */
	retryAfter?: number | string;
	/** Replaces the answer body of kind 'status'. */
	body?: unknown;
	/** 'slow-body': default 5. */
	bytesPerSecond?: number;
	/** 'huge': default 64 MiB; 'many-values': default 1 MiB - 1 byte. */
	sizeBytes?: number;
	/** 'huge': what fills it, one long text (default) or spaces between the envelope's tokens. */
	fill?: 'text' | 'spaces';
	/** 'deep': default 100000. */
	depth?: number;
	/** 'echo-encoded': how the echo is written (sandbox/echoes.js). */
	form?: EchoForm;
	/** 'echo-encoded': what is echoed. */
	of?: 'basic' | 'secret' | 'key' | 'card' | 'cvv' | 'expiry' | 'ciphertext';
	/** 'echo-encoded': the field of the answer (its `data`, or the flat or failure body) it goes into; a path with dots. */
	field?: string;
}

export type EchoForm =
	| 'as-is'
	| 'byte-array'
	| 'byte-list'
	| 'digit-array'
	| 'invisible'
	| 'fullwidth'
	| 'math-bold'
	| 'arabic-digits'
	| 'hex'
	| 'base64'
	| 'base32'
	| 'utf16-base64'
	| 'utf16-hex'
	| 'reversed'
	| 'gzip-base64';

export interface PendingFault extends Required<Pick<FaultOptions, 'match' | 'kind' | 'count'>> {
	method?: string;
	location?: string;
	status?: number;
	retryAfter?: number | string;
	body?: unknown;
	bytesPerSecond?: number;
	sizeBytes?: number;
	fill?: 'text' | 'spaces';
	depth?: number;
	form?: EchoForm;
	of?: FaultOptions['of'];
	field?: string;
}

export type PaymentStatus = 'pending' | 'success' | 'failure' | 'refunded' | 'partially_refunded';

/** Amounts of three-decimal currencies are strings ("1.000"), others numbers. */
export type Amount = number | string;

export interface PaymentDetails {
	paymentMethod: string;
	cardNetwork: string;
	cardType: string;
}

/** The flat record of check-status. */
export interface StatusRecord {
	orderId: string;
	status: PaymentStatus;
	paymentId: string;
	receiptId?: string;
	amount: Amount;
	signature: string;
	timestamp: string;
	paymentDetails: PaymentDetails;
}

/** `data` of GET /transaction/status/<paymentId>. */
export interface PaymentRecord {
	paymentId: string;
	orderId: string;
	receiptId?: string;
	paymentStatus: PaymentStatus;
	/** Same as paymentStatus. */
	status: PaymentStatus;
	paymentMethod: 'card';
	transactionType: 'sales';
	amount: Amount;
	currency: string;
	initiatedAt: string;
	completedAt: string | null;
	signature: string;
	description?: string;
	paymentDetails: PaymentDetails & { cardUsageType: 'domestic' };
}

/** `data` of POST /transaction/refund. */
export interface RefundRecord {
	refundId: string;
	paymentId: string;
	orderId: string;
	receiptId?: string;
	paymentStatus: 'refunded' | 'partially_refunded';
	paymentMethod: 'card';
	amount: Amount;
	currency: string;
	initiatedAt: string;
	completedAt: string;
}

/** A stored card as the gateway lists it. */
export interface StoredCard {
	digitalCardId: string;
	network: string;
	cardType: 'credit';
	status: 'ACTIVE';
	panLastFour: string;
	createdAt: string;
	updatedAt: string;
}

export interface NotificationSettings {
	url: string | null;
	format: NotificationFormat;
	pad: boolean;
}

export type NotificationEvent = 'TRANSACTION_COMPLETED' | 'TRANSACTION_FAILED' | 'REFUND_SUCCESS';

export interface NotificationDelivery {
	time: string;
	event: NotificationEvent;
	url: string;
	/** The exact JSON text sent. */
	body: string;
	/** HTTP status of the answer, or null when none came. */
	status: number | null;
	/** Network error code (ECONNREFUSED, ETIMEDOUT, ...), or null. */
	error: string | null;
	durationMs: number;
}

export interface Sandbox {
	url: string;
	baseUrl: string;
	checkoutBaseUrl: string;
	clients: { active: SandboxClient; inactive: SandboxClient };
	cardEncryptionKey: string;
	requests: LoggedRequest[];
	/** Settled notification deliveries, oldest first. */
	notifications: NotificationDelivery[];
	readonly latencyMs: number;
	readonly faults: PendingFault[];
	/** `{ serves: null }` without a limit. */
	readonly capacity: CapacityOptions;
	/** API requests holding a place now (counted with or without a limit). */
	readonly serving: number;
	readonly notificationSettings: NotificationSettings;
	/** The n8n credential's fields for the active client, merchant domain https://shop.example.com. */
	credentialData<T extends object = Record<string, never>>(overrides?: T): {
		baseUrl: string;
		checkoutBaseUrl: string;
		clientId: string;
		clientSecret: string;
		cardEncryptionKey: string;
		merchantDomain: string;
	} & T;
	/** Clears the request log. */
	clearLog(): void;
	/** Forgets orders, payments, refunds, cards, faults, the request log and the notification log. */
	reset(): void;
	setLatency(ms: number): void;
	completeAuthentication(paymentId: string, result: 'success' | 'failure'): StatusRecord;
	/** Pays the order of a hosted-checkout link as its customer would on that page; `redirectTo` is where the customer lands. */
	payCheckout(checkoutUrl: string, result?: 'success' | 'failure'): StatusRecord & { redirectTo: string };
	/** Moves a stored card's createdAt and updatedAt `days` into the past; 404 HttpError when no one holds it. */
	ageCard(digitalCardId: string, days: number): StoredCard;
	/** Kept by reset(), like the latency; `null` or `{ serves: null }` removes the limit. */
	setCapacity(settings: CapacityOptions | null): CapacityOptions;
	injectFault(fault: FaultOptions): void;
	clearFaults(): void;
	/** What unknown paths answer (HTTP 404, the gateway's envelope): default "No route found"; '' or null restores it. */
	setUnknownPathMessage(message: string | null): { message: string };
	readonly unknownPathMessage: string;
	/** Omitted fields keep their value; url null or '' turns notifications off. */
	setNotifications(settings: Partial<NotificationSettings>): NotificationSettings;
	clearNotifications(): void;
	/** Sends the payment's latest notification again now; `signature` replaces the real one. */
	sendNotification(request: {
		paymentId: string;
		signature?: string;
		format?: NotificationFormat;
	}): Promise<{ status: number | null; error: string | null; body: string }>;
	/** Resolves with the log once it holds `count` settled deliveries; rejects after `timeoutMs` (default 5000). */
	waitForNotifications(count: number, timeoutMs?: number): Promise<NotificationDelivery[]>;
	/** Stops the server, drops open connections and releases every timer. */
	close(): Promise<void>;
}

export function startSandbox(options?: SandboxOptions): Promise<Sandbox>;

export const DEFAULT_SHORT_PREFIX: string;
export const DEFAULT_CLIENTS: { active: SandboxClient; inactive: SandboxClient };
export const DEFAULT_CARD_ENCRYPTION_KEY: string;
export const CARD_LIMIT: number;
