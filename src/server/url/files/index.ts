// Where an upload's bytes go and how its name and type are checked: what ctx.elicitFile builds on.
export {
  DEFAULT_UPLOAD_LIFETIME_MS,
  FileTooLargeError,
  HEAD_BYTES,
  UploadExistsError,
  UploadNotFoundError,
  formatBytes,
  type FileSink,
  type StoredUpload,
} from "./sink.js";
export { directorySink, type DirectorySinkOptions } from "./directory-sink.js";
export { DEFAULT_STORE_SINK_MAX_BYTES, storeSink, type StoreSinkOptions } from "./store-sink.js";
export { checkFileType, type FileTypeCheck } from "./sniff.js";
export { MAX_SHOWN_NAME, shownName } from "./names.js";
