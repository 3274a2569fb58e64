export { ObjectNotFoundError, InvalidKeyError, type ObjectStorage, type ByteRange, type StoredObjectInfo } from "./object-storage";
export { LocalFolderStorage } from "./local-folder-storage";
export { S3Storage, type S3StorageOptions } from "./s3-storage";
export { GrowingObject, listGrowingObjects, openGrowingObject, readGrowingObject } from "./growing-object";
export { describeStorage, storageFor, storageLabel, type StorageSummary } from "./storage-for";
export { copyPrefixToFolder } from "./copy-to-folder";
