package io.rewind.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a run record goes when the command line names no place for it: a folder of the user's own in
 * the temporary folder that keeps the records of the newest {@value #KEPT} runs. A record per run, kept
 * for ever, would fill the temporary folder by the thousand on a machine that runs many short jobs.
 */
final class RecentRunRecords {
    /** How many records the folder keeps, the new one included. */
    static final int KEPT = 20;

    private static final String PREFIX = "run-";
    private static final String SUFFIX = ".json";

    private RecentRunRecords() {}

    /** The default folder: {@code rewind-runs-USER} in {@code java.io.tmpdir}. */
    static Path defaultFolder() {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "rewind-runs-" + user);
    }

    /**
     * A new record's path in {@code folder} (made, readable by its owner only, if missing), after
     * deleting the oldest records so that the folder keeps {@value #KEPT} with the new one.
     */
    static Path next(Path folder) {
        try {
            if (!Files.isDirectory(folder)) {
                Files.createDirectories(folder);
                try {
                    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
                } catch (UnsupportedOperationException notPosix) {
                    // A file system without POSIX permissions: the folder keeps its default ones.
                }
            }
            pruneTo(folder, KEPT - 1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the run record folder " + folder + ": " + e.getMessage(), e);
        }
        return folder.resolve(PREFIX + ProcessHandle.current().pid() + "-" + System.currentTimeMillis() + SUFFIX);
    }

    /** Deletes the oldest records in {@code folder} until at most {@code keep} are left. */
    static void pruneTo(Path folder, int keep) throws IOException {
        List<Path> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            files.filter(RecentRunRecords::isRecord).forEach(records::add);
        }
        if (records.size() <= keep) {
            return;
        }
        records.sort(Comparator.comparing(RecentRunRecords::modified).thenComparing(Path::toString));
        for (Path old : records.subList(0, records.size() - keep)) {
            Files.deleteIfExists(old); // another run may have deleted it first
        }
    }

    private static boolean isRecord(Path p) {
        String name = p.getFileName().toString();
        return name.startsWith(PREFIX) && name.endsWith(SUFFIX) && Files.isRegularFile(p);
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException gone) {
            return FileTime.fromMillis(0); // deleted meanwhile: first in line, and deleting it is a no-op
        }
    }
}
