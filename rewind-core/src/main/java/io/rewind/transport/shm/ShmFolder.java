package io.rewind.transport.shm;

import io.rewind.transport.HeldFolders;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The folder of one job's shared-memory files on one host: {@code rewind-shm-<id>} in {@code /dev/shm}
 * (memory, never written back to a disk), or in the temporary folder where there is no {@code /dev/shm}.
 * The id is derived from the job's secret, so every rank process of the job on the host finds the same
 * folder and nobody without the secret can tell its name in advance.
 *
 * <p>Protection: the folder has mode 0700 and its files 0600, owned by the user who runs the job; a
 * folder of that name that exists with another owner or other permissions (someone got there first) is
 * refused, and the job's ranks then talk over TCP. Nothing in the files is authenticated beyond that:
 * whoever can write into the folder runs as the job's user already.
 *
 * <p>The folder's <em>domain</em> is a random id written once into it by the first process that makes
 * it. Two rank processes that read the same domain share the folder, and so the memory of its files:
 * the launcher hands each rank the domain of every other, and only ranks of one domain use shared memory
 * between them (two containers on one machine that each have their own {@code /dev/shm} get two domains
 * and talk over TCP).
 *
 * <p>Folders of dead jobs ({@link HeldFolders}): every process that opens a folder holds a shared lock on
 * its {@code in-use} file for as long as it lives; the kernel drops the lock when the process ends,
 * however it ends ({@code SIGKILL} included). A job whose processes were all killed (launcher and agents too) cannot
 * remove its folder, so whoever opens a folder next on the host removes the folders of this user that
 * nobody holds and that were last changed more than {@link #STALE_AFTER} ago (a folder being made
 * is younger: its maker takes the lock right after making it). A process that finds its own
 * folder being removed that way waits for it to go and makes it anew.
 */
public final class ShmFolder {
    private static final Set<PosixFilePermission> FOLDER_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final String DOMAIN_FILE = "domain";
    private static final String FOLDER_PREFIX = "rewind-shm-";

    /** A folder nobody holds is removed once it has not changed for this long. */
    static final java.time.Duration STALE_AFTER = java.time.Duration.ofMinutes(2);

    /** How long a process waits for a folder being removed to go before it gives up on shared memory. */
    private static final long REMOVAL_WAIT_MILLIS = 10_000;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path path;
    private final String domain;

    private ShmFolder(Path path, String domain) {
        this.path = path;
        this.domain = domain;
    }

    /** Where a job's folder goes on this host: {@code /dev/shm} if it is there and writable, else the temporary folder. */
    public static Path root() {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The folder's path for the job of {@code secret} under {@code root}. */
    public static Path pathOf(Path root, JobSecret secret) {
        byte[] proof = secret.prove("rewind shared-memory folder".getBytes(StandardCharsets.UTF_8));
        return root.resolve("rewind-shm-" + HexFormat.of().formatHex(proof, 0, 12));
    }

    /**
     * Makes (or joins, if another process of the job made it) the job's folder under {@code root}.
     *
     * @throws IOException if it cannot be made, or exists with another owner, another mode, or as a link
     */
    public static ShmFolder open(Path root, JobSecret secret) throws IOException {
        Path folder = pathOf(root, secret);
        removeStale(root, STALE_AFTER);
        for (int attempt = 0; ; attempt++) {
            ShmFolder opened = openOnce(folder);
            if (HeldFolders.hold(folder)) {
                return opened;
            }
            // A sweep of a process that took this folder for a dead job's holds it: wait until it is
            // gone, then make it anew (once).
            long deadline = System.currentTimeMillis() + REMOVAL_WAIT_MILLIS;
            while (Files.exists(folder, LinkOption.NOFOLLOW_LINKS) && System.currentTimeMillis() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // a removal takes milliseconds
            }
            if (attempt > 0 || Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(folder + " is being removed as the folder of a dead job");
            }
        }
    }

    private static ShmFolder openOnce(Path folder) throws IOException {
        try {
            Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(FOLDER_MODE));
        } catch (FileAlreadyExistsException e) {
            // another rank process of the job on this host made it: checked below
        }
        PosixFileAttributes a = Files.readAttributes(folder, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String me = System.getProperty("user.name");
        if (!a.isDirectory() || a.isSymbolicLink()) {
            throw new IOException(folder + " is not a folder");
        }
        if (!a.permissions().equals(FOLDER_MODE)) {
            throw new IOException(
                    folder + " has mode " + PosixFilePermissions.toString(a.permissions()) + ", not rwx------");
        }
        if (me != null && !a.owner().getName().equals(me)) {
            throw new IOException(folder + " belongs to " + a.owner().getName() + ", not to " + me);
        }
        return new ShmFolder(folder, readOrWriteDomain(folder));
    }

    /** See {@link HeldFolders#removeStale}: this user's job folders under {@code root} that killed jobs left. */
    static java.util.List<Path> removeStale(Path root, java.time.Duration staleAfter) {
        return HeldFolders.removeStale(root, FOLDER_PREFIX, staleAfter);
    }

    private static String readOrWriteDomain(Path folder) throws IOException {
        Path file = folder.resolve(DOMAIN_FILE);
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        String mine = HexFormat.of().formatHex(id);
        Path tmp = folder.resolve(".domain-" + mine);
        Files.writeString(
                tmp, mine, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        Files.setPosixFilePermissions(tmp, FILE_MODE);
        try {
            Files.createLink(file, tmp); // atomic: the first process's id wins, whole
        } catch (FileAlreadyExistsException e) {
            // another process wrote it first
        } finally {
            Files.deleteIfExists(tmp);
        }
        return Files.readString(file).trim();
    }

    /** The folder's path. */
    public Path path() {
        return path;
    }

    /** The random id of this folder (see the class comment). */
    public String domain() {
        return domain;
    }

    /**
     * Maps the file {@code name} of the folder, made {@code bytes} long and zero-filled if it is new (a
     * file that exists is mapped at the length it has). Either side of a ring may come first: the file is
     * made whole under a name of its own, then linked to {@code name} (which fails if the other side
     * linked its own first, and that one is mapped instead), so a file of that name always has its full
     * length.
     */
    MappedByteBuffer map(String name, int bytes) {
        Path file = path.resolve(name);
        try {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                byte[] id = new byte[8];
                RANDOM.nextBytes(id);
                Path tmp = path.resolve(".new-" + HexFormat.of().formatHex(id));
                try (FileChannel ch = FileChannel.open(
                        tmp,
                        Set.<java.nio.file.OpenOption>of(
                                StandardOpenOption.CREATE_NEW,
                                StandardOpenOption.READ,
                                StandardOpenOption.WRITE,
                                LinkOption.NOFOLLOW_LINKS),
                        PosixFilePermissions.asFileAttribute(FILE_MODE))) {
                    ch.write(java.nio.ByteBuffer.allocate(1), bytes - 1);
                }
                try {
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException e) {
                    // the other side was first
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
            try (FileChannel ch = FileChannel.open(
                    file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                long size = ch.size();
                if (size <= 0 || size > Integer.MAX_VALUE) {
                    throw new IOException(file + " has " + size + " bytes");
                }
                return ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("rewind: shm: cannot map " + file + ": " + e.getMessage(), e);
        }
    }

    /** Removes the file {@code name} (its mappings stay valid until they are dropped). */
    void remove(String name) {
        try {
            Files.deleteIfExists(path.resolve(name));
        } catch (IOException e) {
            // a file left behind goes with the folder
        }
    }

    /**
     * Removes the rings and the bell of the incarnations of {@code rank} before {@code incarnation}
     * ({@code ring-R.J-*}, {@code ring-*-R.J}, {@code bell-R.J} with J below it). Processes that still
     * map them keep their mappings.
     */
    void removeIncarnationsBefore(int rank, int incarnation) {
        if (incarnation == 0) {
            return;
        }
        java.util.regex.Pattern mine = java.util.regex.Pattern.compile("(?:ring-" + rank
                + "\\.(\\d+)-\\d+\\.\\d+|ring-\\d+\\.\\d+-" + rank + "\\.(\\d+)|bell-" + rank + "\\.(\\d+))");
        try (Stream<Path> files = Files.list(path)) {
            for (Path f : files.toList()) {
                java.util.regex.Matcher m = mine.matcher(f.getFileName().toString());
                if (m.matches()) {
                    String j = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
                    if (Long.parseLong(j) < incarnation) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        } catch (IOException | UncheckedIOException | NumberFormatException e) {
            // best effort: they go with the folder
        }
    }

    /** Removes the job's folder under {@code root} and everything in it, if it is there. */
    public static void removeFolder(Path root, JobSecret secret) {
        Path folder = pathOf(root, secret);
        HeldFolders.release(folder);
        HeldFolders.deleteTree(folder);
    }
}
