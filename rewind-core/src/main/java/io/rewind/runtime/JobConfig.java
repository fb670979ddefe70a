package io.rewind.runtime;

import io.rewind.engine.EngineConfig;

import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything a job needs, validated once by {@link Builder#build()}.
 *
 * @param ranks     number of ranks (at least 1)
 * @param mainClass fully qualified name of the class whose {@code main} each rank runs
 * @param args      program arguments, the same for every rank
 * @param classPath where the program's classes are (empty: the launcher's own class path)
 * @param engine    engine settings
 * @param timeout   time limit for the whole job; past it the job is aborted and reported as timed out
 * @param tagOutput prefix every output line with {@code [rank]}
 * @param out       where rank standard output goes (null: only captured)
 * @param err       where rank standard error goes (null: only captured)
 */
public record JobConfig(int ranks, String mainClass, List<String> args, List<Path> classPath, EngineConfig engine,
                        Duration timeout, boolean tagOutput, PrintStream out, PrintStream err) {

    /** Upper bound on ranks of one in-JVM job (threads and heap, not the algorithm, set it). */
    public static final int MAX_RANKS = 4096;

    public JobConfig {
        Objects.requireNonNull(mainClass, "mainClass");
        args = List.copyOf(args);
        classPath = List.copyOf(classPath);
    }

    URL[] classPathUrls() {
        URL[] urls = new URL[classPath.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = classPath.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("bad class path entry " + classPath.get(i), e);
            }
        }
        return urls;
    }

    public static Builder builder(String mainClass) {
        return new Builder(mainClass);
    }

    /** Collects settings; {@link #build()} checks them and fills in defaults. */
    public static final class Builder {
        private final String mainClass;
        private int ranks = 1;
        private List<String> args = List.of();
        private final List<Path> classPath = new ArrayList<>();
        private EngineConfig engine;
        private Duration timeout = Duration.ofHours(24);
        private boolean tagOutput = true;
        private PrintStream out;
        private PrintStream err;
        private boolean echo = true;

        private Builder(String mainClass) {
            this.mainClass = mainClass;
        }

        public Builder ranks(int n) {
            this.ranks = n;
            return this;
        }

        public Builder args(List<String> a) {
            this.args = a;
            return this;
        }

        public Builder args(String... a) {
            this.args = List.of(a);
            return this;
        }

        public Builder classPath(List<Path> entries) {
            classPath.addAll(entries);
            return this;
        }

        public Builder engine(EngineConfig e) {
            this.engine = e;
            return this;
        }

        public Builder timeout(Duration t) {
            this.timeout = t;
            return this;
        }

        public Builder tagOutput(boolean t) {
            this.tagOutput = t;
            return this;
        }

        /** Where rank output goes; by default the process's standard streams. */
        public Builder output(PrintStream o, PrintStream e) {
            this.out = o;
            this.err = e;
            return this;
        }

        /** Keep rank output only in the result (tests). */
        public Builder quiet() {
            this.echo = false;
            return this;
        }

        public JobConfig build() {
            if (mainClass == null || mainClass.isBlank()) {
                throw new IllegalArgumentException("a main class is required");
            }
            if (ranks < 1 || ranks > MAX_RANKS) {
                throw new IllegalArgumentException("ranks must be between 1 and " + MAX_RANKS + ", was " + ranks);
            }
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + timeout);
            }
            for (Path p : classPath) {
                if (!Files.exists(p)) {
                    throw new IllegalArgumentException("class path entry does not exist: " + p);
                }
            }
            EngineConfig e = engine != null ? engine : EngineConfig.forRanks(ranks);
            PrintStream o = echo ? (out != null ? out : OutputRouter.rawStdout()) : null;
            PrintStream r = echo ? (err != null ? err : new PrintStream(
                    new java.io.FileOutputStream(java.io.FileDescriptor.err), true,
                    java.nio.charset.StandardCharsets.UTF_8)) : null;
            return new JobConfig(ranks, mainClass, args, classPath, e, timeout, tagOutput, o, r);
        }
    }
}
