package io.rewind.runtime.watch;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * A JFR recording of one job into one file (and, with ranks as processes, each rank's own recording
 * beside it, in {@code FILE.ranks}): this JVM's (the launcher's, where ranks as threads run
 * too) with JFR's default settings, Rewind's events among them, and, with ranks as processes, each
 * rank process's own ({@link #startInRank}), written into {@link #rankFolder} as it ends. A JFR file
 * is a sequence of self-contained chunks, so the job's file is this JVM's recording followed by every
 * rank's, one after the other ({@link JfrChunks}). A rank process killed (a crash of the failure schedule) loses its
 * recording; the launcher's has the failure and recovery events.
 */
public final class JobRecording {
    private final Path file;
    private final Path rankFolder;
    private final Recording recording;

    private JobRecording(Path file, Path rankFolder, Recording recording) {
        this.file = file;
        this.rankFolder = rankFolder;
        this.recording = recording;
    }

    /** Starts recording this JVM for a job whose recording goes to {@code file}. */
    public static JobRecording start(Path file) {
        try {
            Path folder = Files.createTempDirectory("rewind-jfr-");
            Recording r = new Recording(Configuration.getConfiguration("default"));
            r.setName("rewind");
            r.setToDisk(true);
            r.setDestination(folder.resolve("launcher.jfr"));
            r.start();
            return new JobRecording(file, folder, r);
        } catch (IOException | ParseException e) {
            throw new IllegalStateException("cannot start the JFR recording: " + e.getMessage(), e);
        }
    }

    /** Where rank processes write their recordings ({@code rank-R.I.jfr}). */
    public Path rankFolder() {
        return rankFolder;
    }

    /**
     * Stops recording and writes the job's file: this JVM's recording, then every rank's. What cannot
     * be written is one line on standard error.
     */
    public void finish() {
        try {
            recording.stop(); // writes its destination
            recording.close();
            List<Path> parts = new ArrayList<>();
            parts.add(rankFolder.resolve("launcher.jfr"));
            try (Stream<Path> ranks = Files.list(rankFolder)) {
                ranks.filter(p -> p.getFileName().toString().startsWith("rank-"))
                        .sorted()
                        .forEach(parts::add);
            }
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            JfrChunks chunks = new JfrChunks();
            try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file))) {
                for (Path p : parts) {
                    chunks.append(Files.readAllBytes(p), out);
                }
            }
            // Each rank's recording also stays as it was written, beside the job's file: a reader of the
            // JDK (RecordingFile, jfr print) takes a chunk's timestamps and constants (threads, stacks)
            // against the chunks before it, which holds within one JVM only, so in the joined file the
            // ranks' events have their own fields right but not their times and threads.
            Path ranksKept = file.resolveSibling(file.getFileName() + ".ranks");
            for (Path p : parts.subList(1, parts.size())) {
                Files.createDirectories(ranksKept);
                Files.move(p, ranksKept.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.deleteIfExists(parts.getFirst());
            Files.deleteIfExists(rankFolder);
        } catch (IOException | RuntimeException e) {
            System.err.println("rewind: cannot write the JFR recording " + file + ": " + e.getMessage());
        }
    }

    /**
     * In a rank process: starts recording it (JFR's default settings), into {@code file} when {@link
     * #stopInRank} is called as it ends. Null if it cannot (said on standard error).
     */
    public static Recording startInRank(Path file) {
        try {
            Recording r = new Recording(Configuration.getConfiguration("default"));
            r.setName("rewind-rank");
            r.setToDisk(true);
            r.setDestination(file);
            r.start();
            return r;
        } catch (IOException | ParseException | RuntimeException e) {
            System.err.println("rewind: cannot record " + file + " with JFR: " + e.getMessage());
            return null;
        }
    }

    /** In a rank process that ends: its recording is written. */
    public static void stopInRank(Recording r) {
        if (r == null) {
            return;
        }
        try {
            r.stop();
            r.close();
        } catch (RuntimeException e) {
            System.err.println("rewind: cannot write the rank's JFR recording: " + e.getMessage());
        }
    }
}
