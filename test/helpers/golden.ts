/** The digest of fixtures/pack/golden-bundle packed; a change here is a change of the archive format. */
export const GOLDEN_ARCHIVE_DIGEST = 'sha256:f6dd2a0e9330220f079194b38802bbd6d3cc298aa0e4242844c76c3028dc739a';
