/** The files and the diff of seed 002's fs.write_patch example, for its unit and end-to-end tests. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

/** Modifies src/app.txt (two hunks), creates src/new.txt (mode 0755), deletes old.txt. */
export const SEED_DIFF = `diff --git a/src/app.txt b/src/app.txt
index 1111111..2222222 100644
--- a/src/app.txt
+++ b/src/app.txt
@@ -1,3 +1,3 @@
-line 1
+LINE 1
 line 2
 line 3
@@ -8,3 +8,4 @@
 line 8
 line 9
 line 10
+line 11
diff --git a/src/new.txt b/src/new.txt
new file mode 100755
index 0000000..3333333
--- /dev/null
+++ b/src/new.txt
@@ -0,0 +1,2 @@
+#!/bin/sh
+echo new
diff --git a/old.txt b/old.txt
deleted file mode 100644
index 4444444..0000000
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-going
-away
`;

/** src/app.txt (ten lines) and old.txt, which SEED_DIFF applies to. */
export async function seedTree(dir: string): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'src', 'app.txt'), TEN);
  await writeFile(join(dir, 'old.txt'), 'going\naway\n');
}
