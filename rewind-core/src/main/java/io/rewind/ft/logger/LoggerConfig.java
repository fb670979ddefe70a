package io.rewind.ft.logger;

import java.util.List;
import java.util.Locale;

/**
 * Logger nodes of a job: how many, how much each holds, how a rank's log is kept under its quota by
 * dumping to them, and (for tests and demonstrations) when one dies.
 *
 * @param loggers        logger nodes (0: none; ranks keep their whole log)
 * @param quotaBytes     the most payload a rank's log may hold in memory
 * @param capacityBytes  what one logger accepts in all ({@link Long#MAX_VALUE}: no limit); a logger
 *                       declines a dump that does not fit
 * @param replicas       loggers every dump goes to (1 or 2): with 2, one logger's death loses nothing
 * @param alphaSeconds   a proactive dump takes {@code alphaSeconds} times the measured log growth rate
 *                       (bounded by the quota); the paper's coefficient alpha
 * @param kills          loggers to kill, each when asked for its n-th dump
 * @param hosts          with ranks as processes on several hosts, where the loggers run (logger i on
 *                       {@code hosts[i mod size]}); empty: the last nodes of the hostfile or allocation
 * @param folder         where loggers keep blocks as files, logger i in {@code folder/logger-i} (a
 *                       path valid on the loggers' hosts; {@code --logger-memory} is then disk room);
 *                       null: in memory
 */
public record LoggerConfig(
        int loggers,
        long quotaBytes,
        long capacityBytes,
        int replicas,
        double alphaSeconds,
        List<Kill> kills,
        List<String> hosts,
        String folder) {

    /** A rank starts dumping once its log holds this share of the quota. */
    public static final double THRESHOLD_FRACTION = 0.75;

    /** Default alpha: half a second of log growth per dump. */
    public static final double DEFAULT_ALPHA_SECONDS = 0.5;

    public static final LoggerConfig NONE =
            new LoggerConfig(0, Long.MAX_VALUE, Long.MAX_VALUE, 1, DEFAULT_ALPHA_SECONDS, List.of(), List.of(), null);

    /** Without hosts named: the last nodes of the launch. */
    public LoggerConfig(
            int loggers, long quotaBytes, long capacityBytes, int replicas, double alphaSeconds, List<Kill> kills) {
        this(loggers, quotaBytes, capacityBytes, replicas, alphaSeconds, kills, List.of(), null);
    }

    public LoggerConfig {
        if (loggers < 0) {
            throw new IllegalArgumentException("loggers must be >= 0, was " + loggers);
        }
        if (quotaBytes < 1) {
            throw new IllegalArgumentException("the log quota must be at least 1 byte, was " + quotaBytes);
        }
        if (capacityBytes < 1) {
            throw new IllegalArgumentException("a logger's capacity must be at least 1 byte, was " + capacityBytes);
        }
        if (replicas < 1 || replicas > 2) {
            throw new IllegalArgumentException("logger replicas must be 1 or 2, was " + replicas);
        }
        if (loggers > 0 && replicas > loggers) {
            throw new IllegalArgumentException(
                    replicas + " replicas of every dump need at least " + replicas + " loggers, not " + loggers);
        }
        if (!(alphaSeconds > 0) || Double.isInfinite(alphaSeconds)) {
            throw new IllegalArgumentException("alpha must be a positive number of seconds, was " + alphaSeconds);
        }
        kills = List.copyOf(kills);
        hosts = List.copyOf(hosts);
        for (String h : hosts) {
            if (h.isBlank()) {
                throw new IllegalArgumentException("a logger host name is empty");
            }
        }
        for (Kill k : kills) {
            if (k.logger() >= loggers) {
                throw new IllegalArgumentException(
                        "logger kill " + k + " names logger " + k.logger() + " but the job has " + loggers);
            }
        }
    }

    /**
     * What a job built in code gets unless it says otherwise: none, or, for a test tier that runs the
     * recovery oracle with logger nodes, {@code -Drewind.loggers=K} loggers and a quota of {@code
     * -Drewind.loggers.quota=BYTES} (default 4 KiB, small enough that every rank dumps).
     */
    public static LoggerConfig fromTestProperties() {
        int k = Integer.getInteger("rewind.loggers", 0);
        return k <= 0 ? NONE : of(k, Long.getLong("rewind.loggers.quota", 4 << 10));
    }

    /** Loggers with the given quota, everything else at its default. */
    public static LoggerConfig of(int loggers, long quotaBytes) {
        return new LoggerConfig(loggers, quotaBytes, Long.MAX_VALUE, 1, DEFAULT_ALPHA_SECONDS, List.of());
    }

    public boolean enabled() {
        return loggers > 0;
    }

    /** Where proactive dumping starts. */
    public long thresholdBytes() {
        return Math.max(1, (long) (quotaBytes * THRESHOLD_FRACTION));
    }

    public LoggerConfig withCapacity(long bytes) {
        return new LoggerConfig(loggers, quotaBytes, bytes, replicas, alphaSeconds, kills, hosts, folder);
    }

    public LoggerConfig withReplicas(int n) {
        return new LoggerConfig(loggers, quotaBytes, capacityBytes, n, alphaSeconds, kills, hosts, folder);
    }

    public LoggerConfig withAlpha(double seconds) {
        return new LoggerConfig(loggers, quotaBytes, capacityBytes, replicas, seconds, kills, hosts, folder);
    }

    public LoggerConfig withKills(List<Kill> k) {
        return new LoggerConfig(loggers, quotaBytes, capacityBytes, replicas, alphaSeconds, k, hosts, folder);
    }

    public LoggerConfig withHosts(List<String> h) {
        return new LoggerConfig(loggers, quotaBytes, capacityBytes, replicas, alphaSeconds, kills, h, folder);
    }

    public LoggerConfig withFolder(String f) {
        return new LoggerConfig(loggers, quotaBytes, capacityBytes, replicas, alphaSeconds, kills, hosts, f);
    }

    /** The dump request at which logger {@code index} is to die: the earliest of its kills (0: never). */
    public long dieAtDump(int index) {
        return kills.stream()
                .filter(k -> k.logger() == index)
                .mapToLong(Kill::atDump)
                .min()
                .orElse(0);
    }

    /** Where logger {@code index} keeps its blocks (null: in memory). */
    public java.nio.file.Path folderOf(int index) {
        return folder == null ? null : java.nio.file.Path.of(folder, "logger-" + index);
    }

    /**
     * One logger's death: logger {@code logger} dies when asked for its {@code atDump}-th dump (which
     * it never stores).
     */
    public record Kill(int logger, long atDump) {
        public Kill {
            if (logger < 0) {
                throw new IllegalArgumentException("logger index must be >= 0, was " + logger);
            }
            if (atDump < 1) {
                throw new IllegalArgumentException("a logger dies at its first dump or later, not " + atDump);
            }
        }

        /** Parses {@code LOGGER@DUMP} items separated by commas, e.g. {@code 0@3,1@10}. */
        public static List<Kill> parse(String spec) {
            if (spec == null || spec.isBlank()) {
                return List.of();
            }
            List<Kill> out = new java.util.ArrayList<>();
            for (String item : spec.split(",")) {
                String s = item.strip();
                int at = s.indexOf('@');
                try {
                    if (at <= 0) {
                        throw new NumberFormatException();
                    }
                    out.add(new Kill(Integer.parseInt(s.substring(0, at)), Long.parseLong(s.substring(at + 1))));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + s + "' is not LOGGER@DUMP (e.g. 0@3: logger 0 dies when "
                            + "asked for its third dump)");
                }
            }
            return out;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d@%d", logger, atDump);
        }
    }
}
