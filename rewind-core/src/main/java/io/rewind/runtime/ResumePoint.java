package io.rewind.runtime;

import io.rewind.checkpoint.CheckpointStore;
import io.rewind.runtime.rank.RankImage;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A checkpoint folder given to a job ({@code --checkpoint-dir}) across runs. A run that starts afresh
 * removes the checkpoints an earlier run left there (they belong to an execution that is not being
 * continued) and writes a manifest of the job: its ranks, main class and arguments. A run that
 * resumes ({@code --resume}) checks the manifest against itself and starts every rank from the
 * newest recovery line all of them hold a valid file of.
 *
 * <pre>
 *   DIR/job.manifest          ranks, main class, arguments of the job that writes here
 *   DIR/rank-00003/line-...   its checkpoints ({@link CheckpointStore})
 * </pre>
 */
public final class ResumePoint {
    static final String MANIFEST = "job.manifest";

    private ResumePoint() {}

    /**
     * Prepares {@code store}'s folder for {@code config}: returns the line every rank starts from (0:
     * from the beginning).
     *
     * @throws IllegalArgumentException if resuming a folder that holds no manifest, or another job's
     */
    public static long prepare(JobConfig config, CheckpointStore store) {
        Path dir = store.jobDir();
        Path manifest = dir.resolve(MANIFEST);
        Properties mine = manifestOf(config);
        if (!config.faultTolerance().resume()) {
            removeEarlierCheckpoints(dir);
            try (Writer w = Files.newBufferedWriter(manifest, StandardCharsets.UTF_8)) {
                mine.store(w, "the job whose checkpoints this folder holds (rewind run --resume reads it)");
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot write " + manifest + ": " + e.getMessage(), e);
            }
            return 0;
        }
        if (!Files.isRegularFile(manifest)) {
            throw new IllegalArgumentException("nothing to resume in " + dir + ": no " + MANIFEST
                    + " (it is written when a job starts with --checkpoint-dir)");
        }
        Properties theirs = new Properties();
        try (Reader r = Files.newBufferedReader(manifest, StandardCharsets.UTF_8)) {
            theirs.load(r);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + manifest + ": " + e.getMessage(), e);
        }
        if (!theirs.equals(mine)) {
            throw new IllegalArgumentException("the checkpoints in " + dir + " are of another job: " + describe(theirs)
                    + ", not " + describe(mine));
        }
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < config.ranks(); r++) {
            all.add(r);
        }
        long line = store.newestCommonLine(all, Long.MAX_VALUE, why -> System.err.println("rewind: " + why));
        while (line > 0 && !complete(store, config.ranks(), line)) {
            System.err.println("rewind: recovery line " + line + " in " + dir + " lacks messages that were in"
                    + " transit across it when the run died: trying an older one");
            line = store.newestCommonLine(all, line - 1, why -> System.err.println("rewind: " + why));
        }
        if (line == 0) {
            System.err.println("rewind: no recovery line in " + dir + " that every rank holds: the job starts over");
        } else {
            System.err.println("rewind: resuming every rank from recovery line " + line + " in " + dir);
        }
        for (int r = 0; r < config.ranks(); r++) {
            // Newer lines some ranks wrote belong to the execution that is not continued.
            store.discardAfter(r, line);
        }
        return line;
    }

    /**
     * Whether every rank finds, in its state at {@code line} or in the channel state kept with it, every
     * message the others had sent it before the line (lines written before the record of sent counts
     * are taken as they are).
     */
    static boolean complete(CheckpointStore store, int ranks, long line) {
        List<Map<Long, Long>> held = new ArrayList<>();
        List<Map<Long, Long>> sent = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            io.rewind.checkpoint.CheckpointImage image = store.loadWithChannelState(r, line, why -> {});
            Map<Long, Long> counts = RankImage.sent(image);
            sent.add(counts);
            // A line written before sent counts were recorded is taken as it is, as before.
            held.add(counts == null ? Map.of() : RankImage.frontiers(image));
        }
        for (int s = 0; s < ranks; s++) {
            if (sent.get(s) == null) {
                continue;
            }
            for (java.util.Map.Entry<Long, Long> e : sent.get(s).entrySet()) {
                int r = io.rewind.engine.ChannelKey.peer(e.getKey());
                if (r == s || r < 0 || r >= ranks || sent.get(r) == null) {
                    continue;
                }
                long key = io.rewind.engine.ChannelKey.of(io.rewind.engine.ChannelKey.context(e.getKey()), s);
                if (held.get(r).getOrDefault(key, 0L) < e.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Properties manifestOf(JobConfig c) {
        Properties p = new Properties();
        p.setProperty("ranks", Integer.toString(c.ranks()));
        p.setProperty("main", c.program().mainClass());
        p.setProperty("args", Integer.toString(c.program().args().size()));
        for (int i = 0; i < c.program().args().size(); i++) {
            p.setProperty("arg." + i, c.program().args().get(i));
        }
        return p;
    }

    private static String describe(Properties p) {
        List<String> args = new ArrayList<>();
        int n = Integer.parseInt(p.getProperty("args", "0"));
        for (int i = 0; i < n; i++) {
            args.add(p.getProperty("arg." + i));
        }
        return p.getProperty("ranks") + " ranks of " + p.getProperty("main") + " " + args;
    }

    private static void removeEarlierCheckpoints(Path dir) {
        List<Path> ranks = new ArrayList<>();
        try (DirectoryStream<Path> found = Files.newDirectoryStream(dir, "rank-[0-9][0-9][0-9][0-9][0-9]")) {
            found.forEach(ranks::add);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        if (ranks.isEmpty()) {
            return;
        }
        System.err.println("rewind: removing the checkpoints an earlier run left in " + dir
                + " (run with --resume to continue that run instead)");
        for (Path rank : ranks) {
            try (Stream<Path> files = Files.walk(rank)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot remove " + rank + ": " + e.getMessage(), e);
            }
        }
    }
}
