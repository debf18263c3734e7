/**
 * The folders a listing of file paths names. Each path adds its folders deepest first and stops
 * at one already there, whose own folders are then there too: every folder's path is made once,
 * whatever the number of files below it. Adding every folder of every path cost a file n folders
 * deep n times its length, for each file of a deep folder (an archive may hold 20,000 paths of
 * 4096 bytes, 2048 folders deep).
 */

/** Adds every proper folder of `path` (`a`, `a/b` for `a/b/c`) to `folders`, which holds nothing but what this added. */
export function addFolders(folders: Set<string>, path: string): void {
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
    const folder = path.slice(0, slash);
    if (folders.has(folder)) return;
    folders.add(folder);
  }
}

/** The proper folders of all of `paths`. */
export function foldersOf(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) addFolders(folders, path);
  return folders;
}
