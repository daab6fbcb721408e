// CommonJS callers get zod's own CommonJS build (as before: a second copy, as with any dual package)
module.exports = require('zod-upstream');
