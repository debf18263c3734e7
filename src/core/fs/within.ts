/** True when `child` is `root` or lies below it, on path-segment boundaries (both absolute, normal). */
export function within(child: string, root: string): boolean {
  if (root === '/') return child.startsWith('/');
  return child === root || child.startsWith(root + '/');
}
