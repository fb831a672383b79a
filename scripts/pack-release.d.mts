// Types of pack-release.mjs, for the tests that publish the release's tarballs.
export interface PackedRelease {
  name: string;
  version: string;
  /** The tarball's absolute path. */
  tarball: string;
  /** Its size in bytes. */
  size: number;
  /** The paths it holds, inside the package. */
  files: string[];
  manifest: Record<string, unknown>;
}
export declare const PACKAGES: string[];
export declare function publishedManifest(manifest: Record<string, unknown>): Record<string, unknown>;
export declare function manifestProblems(manifest: Record<string, unknown>, files: string[]): string[];
export declare function packRelease(options?: { outDir?: string; from?: Record<string, string> }): PackedRelease[];
