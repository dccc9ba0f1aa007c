export interface SandboxClient {
	clientId: string;
	clientSecret: string;
}

export interface SandboxOptions {
	/** 0 picks a free port. */
	port?: number;
	latencyMs?: number;
	/** Prefix of the short path family; '' serves it at the root. */
	shortPrefix?: string;
	clients?: { active?: Partial<SandboxClient>; inactive?: Partial<SandboxClient> };
	/** 64 hex characters. */
	cardEncryptionKey?: string;
}

export interface LoggedRequest {
	time: string;
	method: string;
	path: string;
	apiPath: string | null;
	family: 'short' | 'long' | null;
	headers: Record<string, string | string[] | undefined>;
	clientId: string | null;
	body: string;
	status: number | null;
	resCode: number | null;
}

export interface FaultOptions {
	/** Substring of the request path (query included); '' matches every API request. */
	match?: string;
	status: number;
	count?: number;
	retryAfter?: number | string;
	body?: unknown;
}

export interface StatusRecord {
	orderId: string;
	status: 'created' | 'pending' | 'success' | 'failure';
	paymentId: string;
	receiptId?: string;
	amount: number | string;
	signature: string;
	timestamp: string;
	paymentDetails?: { paymentMethod: string; cardNetwork: string; cardType: string };
}

export interface Sandbox {
	url: string;
	baseUrl: string;
	checkoutBaseUrl: string;
	clients: { active: SandboxClient; inactive: SandboxClient };
	cardEncryptionKey: string;
	requests: LoggedRequest[];
	/** The n8n credential's fields for the active client, merchant domain https://shop.example.com. */
	credentialData<T extends object = Record<string, never>>(overrides?: T): {
		baseUrl: string;
		checkoutBaseUrl: string;
		clientId: string;
		clientSecret: string;
		cardEncryptionKey: string;
		merchantDomain: string;
	} & T;
	clearLog(): void;
	reset(): void;
	setLatency(ms: number): void;
	completeAuthentication(paymentId: string, result: 'success' | 'failure'): StatusRecord;
	injectFault(fault: FaultOptions): void;
	close(): Promise<void>;
}

export function startSandbox(options?: SandboxOptions): Promise<Sandbox>;

export const DEFAULT_SHORT_PREFIX: string;
export const DEFAULT_CLIENTS: { active: SandboxClient; inactive: SandboxClient };
export const DEFAULT_CARD_ENCRYPTION_KEY: string;
export const CARD_LIMIT: number;
