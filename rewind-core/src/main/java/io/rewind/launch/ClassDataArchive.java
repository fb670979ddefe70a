package io.rewind.launch;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The class-data-sharing archive of the runtime's classes that rank processes and agents map, so a
 * respawned rank starts in a fraction of the time. One archive per JVM and class path, in the
 * temporary folder.
 *
 * <p>The archive is written by one rank process only, into a file of its own, and becomes the archive
 * by an atomic rename once that process has exited cleanly; every other JVM maps a complete archive or
 * none. With the JVM's own {@code -XX:+AutoCreateSharedArchive} every JVM that started without an
 * archive wrote one in place as it exited: the rank processes of a job, which exit together, wrote the
 * same file at once, and a process ended while it wrote (a straggler stopped at the end of a job, an
 * interrupted job) left a partial file. JDK 25.0.3 crashes every JVM that maps such a file ({@code
 * SIGSEGV} in {@code AOTClassLocationConfig::validate}) instead of ignoring it: every rank process of
 * every later job died before starting.
 */
final class ClassDataArchive {
    /** A writer's claim older than this is taken for one whose agent died: another process may write. */
    private static final Duration STALE_CLAIM = Duration.ofMinutes(2);
    /** The status of a JVM that died of a fatal error (SIGABRT after its error report). */
    static final int FATAL_ERROR_STATUS = 134;

    // The JVM's messages about the archive (JDK 25 logs some under "aot") are not the program's output.
    private static final String QUIET_CDS = "-Xlog:cds=off:stderr";
    private static final String QUIET_CDS_DYNAMIC = "-Xlog:cds+dynamic=off:stderr";
    private static final String QUIET_AOT = "-Xlog:aot=off:stderr";

    /** Null: the class path cannot be archived (the JVM archives classes from jar files only). */
    private final Path archive;

    private final Path claim;

    private ClassDataArchive(Path archive) {
        this.archive = archive;
        this.claim = archive == null ? null : archive.resolveSibling(archive.getFileName() + ".writing");
    }

    /** The archive of {@code java} running {@code classPath}, in the temporary folder. */
    static ClassDataArchive of(String java, String classPath) {
        return new ClassDataArchive(onlyJars(classPath) ? archivePath(java, classPath) : null);
    }

    /** The archive at {@code archive} (tests). */
    static ClassDataArchive at(Path archive) {
        return new ClassDataArchive(archive);
    }

    /** The archive's path; null if the class path cannot be archived. */
    Path path() {
        return archive;
    }

    /** Options that map the archive if a complete one is there; none otherwise. */
    List<String> mapOptions() {
        if (archive == null || !Files.isRegularFile(archive)) {
            return List.of();
        }
        return List.of("-XX:SharedArchiveFile=" + archive, QUIET_CDS, QUIET_CDS_DYNAMIC, QUIET_AOT);
    }

    /**
     * The right to write the archive, if there is none yet and no other process is writing it (a claim
     * file made atomically, so agents on one host never write at once); null otherwise.
     */
    Writer claimWriter() {
        if (archive == null || Files.isRegularFile(archive)) {
            return null;
        }
        try {
            Files.createFile(claim);
        } catch (FileAlreadyExistsException e) {
            if (!staleClaim()) {
                return null;
            }
            try {
                Files.deleteIfExists(claim);
                Files.createFile(claim);
            } catch (IOException again) {
                return null; // another process took the stale claim first
            }
        } catch (IOException e) {
            return null; // no archive then: the job runs as well, only respawns start slower
        }
        return new Writer(archive.resolveSibling(archive.getFileName() + "." + UUID.randomUUID() + ".tmp"));
    }

    private boolean staleClaim() {
        try {
            FileTime made = Files.getLastModifiedTime(claim);
            return made.toInstant().isBefore(Instant.now().minus(STALE_CLAIM));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A JVM that mapped the archive died of a fatal error: the archive may be the cause (made by a JVM
     * of another build, say), so it goes; the next clean run writes it again.
     */
    void distrust() {
        if (archive != null) {
            try {
                Files.deleteIfExists(archive);
            } catch (IOException e) {
                // still there: the next fatal error tries again
            }
        }
    }

    /** One process's right to write the archive. */
    final class Writer {
        private final Path temporary;

        private Writer(Path temporary) {
            this.temporary = temporary;
        }

        /** Options that make the JVM write the archive, into a file of its own, when it exits. */
        List<String> options() {
            return List.of("-XX:ArchiveClassesAtExit=" + temporary, QUIET_CDS, QUIET_CDS_DYNAMIC, QUIET_AOT);
        }

        /** The writing process exited: its file becomes the archive if it exited cleanly, else it goes. */
        void exited(int status) {
            try {
                if (status == 0 && Files.isRegularFile(temporary) && Files.size(temporary) > 0) {
                    Files.move(temporary, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                // no archive this time: the next process to claim it writes it
            } finally {
                try {
                    Files.deleteIfExists(temporary);
                    Files.deleteIfExists(claim);
                } catch (IOException e) {
                    // a stale claim is taken over after a while
                }
            }
        }
    }

    private static boolean onlyJars(String classPath) {
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.endsWith(".jar") || !Files.isRegularFile(Path.of(entry))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A rebuilt jar gets a new archive: the JVM may crash mapping an archive made from a jar that has
     * changed since (seen with JDK 25.0.3), so the key names every jar's size and time of change too.
     */
    private static Path archivePath(String java, String classPath) {
        StringBuilder key = new StringBuilder(java + "\n" + classPath);
        for (String entry : classPath.split(File.pathSeparator)) {
            File jar = new File(entry);
            key.append('\n').append(jar.length()).append(' ').append(jar.lastModified());
        }
        String hash;
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(StandardCharsets.UTF_8));
            hash = HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "rewind-cds-" + hash + ".jsa");
    }
}
