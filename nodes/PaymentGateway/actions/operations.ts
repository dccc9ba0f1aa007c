// Every operation of the node, one line each, in the order of its fields: the router, the Resource and Operation
// lists and the subtitle are derived from these (description.ts). A new operation is one file and one line here.
export { operation as orderCreate } from './order/create.operation';
export { operation as orderCreateCheckout } from './order/createCheckout.operation';
export { operation as transactionInitiate } from './transaction/initiate.operation';
export { operation as transactionRefund } from './transaction/refund.operation';
export { operation as statusGetByOrderId } from './status/getByOrderId.operation';
export { operation as statusGetByPaymentId } from './status/getByPaymentId.operation';
export { operation as statusVerifySignature } from './status/verifySignature.operation';
export { operation as digitalCardGetMany } from './digitalCard/getMany.operation';
export { operation as digitalCardGet } from './digitalCard/get.operation';
export { operation as digitalCardDelete } from './digitalCard/delete.operation';
