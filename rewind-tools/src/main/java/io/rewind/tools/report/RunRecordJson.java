package io.rewind.tools.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rewind.tools.profile.InputFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads, validates and writes {@link RunRecord} JSON. */
public final class RunRecordJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunRecordJson() {}

    public static RunRecord read(Path file) {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public static RunRecord parse(String json, String name) {
        RunRecord r;
        try {
            r = MAPPER.readValue(json, RunRecord.class);
        } catch (JsonProcessingException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new InputFormatException(name, line, "not a valid run record: " + e.getOriginalMessage());
        }
        validate(r, name);
        return r;
    }

    public static String toJson(RunRecord r) {
        try {
            return MAPPER.writeValueAsString(r);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void write(RunRecord r, Path file) {
        try {
            Files.writeString(file, toJson(r));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void validate(RunRecord r, String name) {
        if (!RunRecord.FORMAT.equals(r.format())) {
            throw new InputFormatException(
                    name, 0, "\"format\" must be \"" + RunRecord.FORMAT + "\", found " + r.format());
        }
        if (r.version() != 1) {
            throw new InputFormatException(name, 0, "unsupported run record version " + r.version());
        }
        if (r.ranks() < 1) {
            throw new InputFormatException(name, 0, "\"ranks\" must be positive");
        }
        double previous = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < r.logSamples().size(); i++) {
            RunRecord.LogSample s = r.logSamples().get(i);
            if (s.logBytes() == null || s.logBytes().length != r.ranks()) {
                throw new InputFormatException(
                        name, 0, "logSamples[" + i + "] must have one value per rank (" + r.ranks() + ")");
            }
            if (s.logMemoryBytes() != null && s.logMemoryBytes().length != r.ranks()) {
                throw new InputFormatException(
                        name,
                        0,
                        "logSamples[" + i + "].logMemoryBytes must have one value per rank (" + r.ranks() + ")");
            }
            if (s.timeMs() < previous) {
                throw new InputFormatException(name, 0, "logSamples[" + i + "] goes back in time");
            }
            previous = s.timeMs();
        }
        for (int i = 0; i < r.recovery().size(); i++) {
            RunRecord.RecoveryPhase p = r.recovery().get(i);
            if (p.phase() == null || p.endMs() < p.startMs() || p.rank() < 0 || p.rank() >= r.ranks()) {
                throw new InputFormatException(
                        name, 0, "recovery[" + i + "] needs a phase, a rank in range and endMs >= startMs");
            }
        }
        for (int i = 0; i < r.protocolComparison().size(); i++) {
            if (r.protocolComparison().get(i).protocol() == null) {
                throw new InputFormatException(name, 0, "protocolComparison[" + i + "] has no protocol name");
            }
        }
    }
}
