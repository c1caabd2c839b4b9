import { execFile } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A small disk of its own: a size-limited tmpfs mounted on a fresh folder, to make a disk full or read-only
 * for real (chmod does not stop root from writing). Mounting needs root (or CAP_SYS_ADMIN).
 */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk refuses even one more byte. */
  fill(): Promise<void>;
  remountReadOnly(): Promise<void>;
  unmount(): Promise<void>;
}

/** Mounts a small disk on a fresh folder, or on the existing folder `at` (hiding what it holds meanwhile). */
export async function mountSmallDisk(sizeMb = 8, at?: string): Promise<SmallDisk> {
  const dir = at ?? (await mkdtemp(join(tmpdir(), 'calendar-desk-disk-')));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir]);
  } catch (error) {
    if (!at) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let mounted = true;
  return {
    dir,
    async fill() {
      const handle = await open(join(dir, 'filler'), 'a');
      try {
        for (const size of [1024 * 1024, 4096, 1]) {
          const chunk = Buffer.alloc(size, 0x2e);
          for (;;) {
            try {
              await handle.write(chunk);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        await handle.close();
      }
    },
    async remountReadOnly() {
      await run('mount', ['-o', 'remount,ro', dir]);
    },
    async unmount() {
      if (!mounted) return;
      mounted = false;
      // Lazily if something still holds a file there: the mount must never outlive the test.
      await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
      if (!at) await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Null when a small disk can be mounted here; else why not, also warned loudly on the console, so that
 * tests needing one are skipped under a name that says so rather than silently.
 */
export async function whySmallDisksCannotBeMounted(): Promise<string | null> {
  try {
    const disk = await mountSmallDisk(1);
    await disk.unmount();
    return null;
  } catch (error) {
    const reason = `cannot mount a tmpfs here (${((error as { stderr?: string }).stderr || (error as Error).message).trim()})`;
    console.warn(
      `\n*** SKIPPED: the full-disk and read-only-disk tests did not run: ${reason}. Run them as root. ***\n`,
    );
    return reason;
  }
}
