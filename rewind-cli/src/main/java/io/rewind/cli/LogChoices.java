package io.rewind.cli;

import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import java.util.Locale;

/**
 * The payload log's storage backends and copy methods as the commands name them ({@code rewind run
 * --log-backend/--log-copy}, {@code rewind bench logging --backends/--copies}), and the log settings
 * each stands for. Names are case-insensitive; an unknown one is an {@link IllegalArgumentException}
 * whose message lists the valid names.
 */
public final class LogChoices {
    private LogChoices() {}

    /** The backend a name stands for. */
    public static StorageBackend backend(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "off-heap", "offheap" -> StorageBackend.OFF_HEAP;
            case "mapped-file", "mapped" -> StorageBackend.MAPPED_FILE;
            case "hybrid" -> StorageBackend.HYBRID;
            case "dummy" -> StorageBackend.DUMMY;
            default -> throw new IllegalArgumentException(
                    "unknown log backend '" + name + "' (use off-heap, mapped-file, hybrid or dummy)");
        };
    }

    /** The usual name of the backend a name stands for (an alias becomes the name it stands for). */
    public static String backendName(String name) {
        return switch (backend(name)) {
            case OFF_HEAP -> "off-heap";
            case MAPPED_FILE -> "mapped-file";
            case HYBRID -> "hybrid";
            case DUMMY -> "dummy";
        };
    }

    /** The usual name of a copy method: hybrid (chosen by size), pack, pipelined or helper. */
    public static String copyName(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "hybrid" -> "hybrid";
            case "pack" -> "pack";
            case "pipelined" -> "pipelined";
            case "helper", "helper-thread" -> "helper";
            default -> throw new IllegalArgumentException(
                    "unknown log copy method '" + name + "' (use hybrid, pack, pipelined or helper)");
        };
    }

    /**
     * The default settings of a backend with a copy method: hybrid keeps the size thresholds, any
     * other method is forced for every size.
     */
    public static PayloadLogConfig.Builder config(String backend, String copy) {
        PayloadLogConfig.Builder c = PayloadLogConfig.builder(backend(backend));
        switch (copyName(copy)) {
            case "pack" -> c.pipelineThresholdBytes(Long.MAX_VALUE).helperThreadThresholdBytes(Long.MAX_VALUE);
            case "pipelined" -> c.pipelineThresholdBytes(0).helperThreadThresholdBytes(Long.MAX_VALUE);
            case "helper" -> c.pipelineThresholdBytes(0).helperThreadThresholdBytes(0);
            default -> {} // hybrid
        }
        return c;
    }
}
