import type { IDataObject } from 'n8n-workflow';

import type { Shape } from './outputs';
import { shapeRecord } from './outputs';
import type { Funnel } from './redact';
import { cardDataFunnel } from './redact';

/** The fields of a failure answer that say what failed; the gateway's own messages use the first of them found. */
const FAILURE: Shape = { resCode: 'code', status: 'word', errMessage: 'message', message: 'message' };

/**
 * What of a failure answer may reach an error or an item: its declared fields, of their kinds. Whatever else it holds
 * stays out: a gateway or a proxy that echoes the request would put the Basic header, the client secret or card data
 * into the execution.
 */
export function knownFailureFields(body: IDataObject, funnel: Funnel = cardDataFunnel): IDataObject {
	return shapeRecord(FAILURE, body, funnel);
}
