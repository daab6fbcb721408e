// The door to Salt's eauth ACL grammar for other plugins (the peer plugin checks `peer` with it).
export { authCheck, type TargetResolver } from './acl.js';
export { expectedTargetBounds } from './target-bounds.js';
