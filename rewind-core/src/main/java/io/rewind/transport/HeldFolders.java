package io.rewind.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Folders a job keeps on a host while it runs (shared-memory files, a node's checkpoints), and how the
 * folders of jobs that died whole are told apart from those of live ones.
 *
 * <p>Every process that uses such a folder holds a shared lock on its {@code in-use} file for as long as
 * it lives; the kernel drops the lock when the process ends, however it ends ({@code SIGKILL} included, or
 * a node's agent killed with the node). So a folder nobody holds belongs to no live process. A folder being
 * made is held right after it is made; a sweep leaves alone anything changed more recently than it is
 * told, so it never takes a folder in that moment for a dead job's.
 */
public final class HeldFolders {
    private static final String IN_USE_FILE = "in-use";

    /**
     * The {@code in-use} files of the folders this process holds, with the shared lock on each: kept open
     * until the process exits, which releases the locks.
     */
    private static final Map<Path, FileChannel> HELD = new ConcurrentHashMap<>();

    private HeldFolders() {}

    /**
     * Takes this process's shared lock on {@code folder}'s {@code in-use} file (or finds it held already),
     * for as long as this process lives.
     *
     * @return false if another process holds it exclusively: it is removing the folder
     */
    public static boolean hold(Path folder) throws IOException {
        if (HELD.containsKey(folder)) {
            return true;
        }
        FileChannel ch = openInUse(folder);
        try {
            if (ch.tryLock(0, Long.MAX_VALUE, true) == null) {
                ch.close();
                return false;
            }
        } catch (OverlappingFileLockException e) {
            // Another thread of this process took it at the same moment and registers its own channel;
            // this one holds no lock and must not replace (and so close) that one.
            ch.close();
            return true;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (HELD.putIfAbsent(folder, ch) != null) {
            ch.close();
        }
        return true;
    }

    /** Drops this process's lock on {@code folder} (before removing it), if it holds one. */
    public static void release(Path folder) {
        FileChannel held = HELD.remove(folder);
        if (held != null) {
            try {
                held.close();
            } catch (IOException e) {
                // the lock goes with the process anyway
            }
        }
    }

    /**
     * Removes this user's folders under {@code root} whose names start with {@code prefix}, that no live
     * process holds and that have not changed for {@code staleAfter}: what jobs killed whole left behind.
     * Best effort: a folder that cannot be examined or removed is left.
     *
     * @return the folders removed
     */
    public static List<Path> removeStale(Path root, String prefix, Duration staleAfter) {
        List<Path> removed = new ArrayList<>();
        String me = System.getProperty("user.name");
        long changedBefore = System.currentTimeMillis() - staleAfter.toMillis();
        try (Stream<Path> entries = Files.list(root)) {
            for (Path folder : entries.toList()) {
                if (!folder.getFileName().toString().startsWith(prefix) || HELD.containsKey(folder)) {
                    continue;
                }
                try {
                    PosixFileAttributes a =
                            Files.readAttributes(folder, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (!a.isDirectory()
                            || (me != null && !a.owner().getName().equals(me))
                            || a.lastModifiedTime().toMillis() > changedBefore) {
                        continue;
                    }
                    if (removeUnheld(folder)) {
                        removed.add(folder);
                    }
                } catch (IOException | RuntimeException e) {
                    // gone meanwhile, or not ours to judge
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // no listing, no sweep
        }
        return removed;
    }

    /** Removes {@code folder} if nobody holds its {@code in-use} file, holding it exclusively meanwhile. */
    private static boolean removeUnheld(Path folder) throws IOException {
        try (FileChannel ch = openInUse(folder)) {
            FileLock lock;
            try {
                lock = ch.tryLock(0, Long.MAX_VALUE, false);
            } catch (OverlappingFileLockException e) {
                return false; // this process holds it
            }
            if (lock == null) {
                return false; // a live process holds it
            }
            deleteTree(folder);
            return true;
        }
    }

    /** The folder's {@code in-use} file, made (mode 0600) if it is not there. */
    private static FileChannel openInUse(Path folder) throws IOException {
        return FileChannel.open(
                folder.resolve(IN_USE_FILE),
                Set.<OpenOption>of(
                        StandardOpenOption.CREATE,
                        StandardOpenOption.READ,
                        StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }

    /** Removes {@code folder} and everything in it, as far as it can (best effort). */
    public static void deleteTree(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort
                }
            });
        } catch (NoSuchFileException e) {
            // nothing there
        } catch (IOException | UncheckedIOException e) {
            // best effort (another process may be removing it too)
        }
    }
}
