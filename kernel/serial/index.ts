export { type UnpackOptions, unpackIpc, unpackNetwork } from './decoder.js';
export { packIpc, packNetwork } from './encoder.js';
export {
  decodeEventBody,
  decodeIpcMessage,
  type EventBody,
  encodeEventBody,
  encodeIpcMessage,
  type IpcMessage,
  TAGEND,
  toIpcMessage,
} from './event-frame.js';
export { IpcStreamDecoder, type IpcStreamOptions } from './ipc-stream.js';
export { msgpackValueEnd } from './msgpack-scan.js';
export {
  EXT_CONSTANT,
  EXT_DATETIME,
  float64,
  NOT_SET,
  SaltConstant,
  SaltDatetime,
  SaltFloat,
} from './salt-types.js';
