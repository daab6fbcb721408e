export type {
  ExecContext,
  ExtraArgs,
  FunctionSpec,
  Grains,
  GrainsContext,
  GrainsModuleDef,
  ModuleDef,
  UnitLogger,
  VirtualContext,
  VirtualResult,
} from './define.js';
export { defineFunction, defineGrains, defineModule } from './define.js';
export { type CustomGrainsOptions, loadCustomGrains } from './grains-loader.js';
export { missingFunString, moduleOf } from './missing.js';
export { createModuleLoader, type ModuleLoader, type ModuleLoaderOptions } from './module-loader.js';
export {
  type ExtensionKind,
  findPackageJson,
  type PackageDirsOptions,
  readPackageDir,
  resolvePackageDirs,
} from './packages.js';
export {
  type ScanOptions,
  type ScanResult,
  type StemCollision,
  scanDirs,
  type UnitFile,
  unitStem,
} from './scan.js';
export { isModuleName, readVirtualResult, type VirtualDecision, validateModuleDef } from './validate.js';
