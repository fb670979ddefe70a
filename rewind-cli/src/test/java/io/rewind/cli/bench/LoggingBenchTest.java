package io.rewind.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.cli.RewindCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rewind bench logging} end to end with tiny sizes: files written, every ratio parses. */
class LoggingBenchTest {

    @Test
    void writesCsvMarkdownAndChartsWithParsableRatios(@TempDir Path dir) throws Exception {
        int status = RewindCommand.execute(
                "bench",
                "logging",
                "--min-bytes",
                "16",
                "--max-bytes",
                "4096",
                "--size-factor",
                "16",
                "--reps", // the old name of --repeat, kept as a hidden alias
                "2",
                "--warm-up",
                "0",
                "--batches",
                "1",
                "--work-scale",
                "0.01",
                "--backends",
                "off-heap,dummy",
                "--copies",
                "hybrid,helper",
                "--out",
                dir.toString());
        assertEquals(0, status);
        List<String> csv = Files.readAllLines(dir.resolve("logging.csv"));
        assertTrue(csv.get(0).startsWith("variant,protocol,backend,copy,bytes,"), csv.get(0));
        // no logging + tracking only + 2 backends x 2 copy methods x 2 regimes, at 16 B, 256 B and 4 KiB
        assertEquals(1 + 10 * 3, csv.size(), String.join("\n", csv));
        Set<String> variants = csv.stream().skip(1).map(l -> l.split(",")[0]).collect(Collectors.toSet());
        assertTrue(
                variants.contains("off-heap / helper / steady log")
                        && variants.contains("off-heap / helper / growing log")
                        && variants.contains("dummy / hybrid / growing log"),
                variants.toString());
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",");
            double ratio = Double.parseDouble(f[7]);
            assertTrue(ratio > 0 && Double.isFinite(ratio), line);
            assertTrue(Double.parseDouble(f[8]) <= ratio && ratio <= Double.parseDouble(f[9]), line);
            if (f[1].equals("none")) {
                assertEquals(1.0, ratio, 1e-9, line);
            }
        }
        String md = Files.readString(dir.resolve("logging.md"));
        assertTrue(md.contains("| 4 KiB |"), md);
        for (String chart : List.of(
                "logging-ratio-all.svg",
                "logging-ratio-backend-off-heap.svg",
                "logging-ratio-copy-helper.svg",
                "logging-ratio-copy-hybrid.svg")) {
            String svg = Files.readString(dir.resolve(chart));
            assertTrue(svg.startsWith("<svg") && svg.contains("message size") && svg.contains("</svg>"), chart);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"jobs", "fork"})
    void jobsOneAfterAnotherReportTheSameSizes(String mode, @TempDir Path dir) throws Exception {
        int status = RewindCommand.execute(
                "bench",
                "logging",
                "--min-bytes",
                "64",
                "--max-bytes",
                "65536",
                "--size-factor",
                "32",
                "--repeat",
                "1",
                "--warm-up",
                "0",
                "--batches",
                "1",
                "--work-scale",
                "0.01",
                "--backends",
                "off-heap",
                "--copies",
                "pack",
                "--pages",
                "huge,small",
                "--prepare",
                "ahead,writer",
                "--regimes",
                "growing",
                "--no-tracking-only",
                "--mode",
                mode,
                "--out",
                dir.toString());
        assertEquals(0, status);
        List<String> csv = Files.readAllLines(dir.resolve("logging.csv"));
        // no logging + off-heap / pack in huge and small pages, prepared ahead or not, at 64 B, 2 KiB, 64 KiB
        assertEquals(1 + 5 * 3, csv.size(), String.join("\n", csv));
        for (String pages : List.of("huge", "small")) {
            for (String prepared : List.of("prepared ahead", "faulted by writer")) {
                String name = "off-heap / pack / " + pages + " pages / " + prepared;
                assertTrue(
                        csv.stream().anyMatch(l -> l.startsWith(name + ",pessimistic,off-heap,pack,65536,")),
                        name + " in\n" + String.join("\n", csv));
            }
        }
    }

    @Test
    void aReservedVariantReservesWhatItsWarmUpJobLogged(@TempDir Path dir) throws Exception {
        int status = RewindCommand.execute(
                "bench",
                "logging",
                "--min-bytes",
                "65536",
                "--max-bytes",
                "65536",
                "--repeat",
                "1",
                "--warm-up",
                "1",
                "--batches",
                "1",
                "--work-scale",
                "0.01",
                "--backends",
                "off-heap,mapped-file",
                "--copies",
                "pack",
                "--prepare",
                "ahead,reserved",
                "--regimes",
                "growing",
                "--no-tracking-only",
                "--mode",
                "fork",
                "--out",
                dir.toString());
        assertEquals(0, status);
        List<String> csv = Files.readAllLines(dir.resolve("logging.csv"));
        // no logging, off-heap prepared ahead and reserved, mapped-file prepared ahead (it has no reserve)
        assertEquals(1 + 4, csv.size(), String.join("\n", csv));
        assertTrue(csv.stream().anyMatch(l -> l.startsWith("off-heap / pack / reserved,")), String.join("\n", csv));
        assertTrue(csv.stream().noneMatch(l -> l.startsWith("mapped-file / pack / reserved,")));
        assertEquals(
                2,
                RewindCommand.execute(
                        "bench", "logging", "--prepare", "reserved", "--warm-up", "0", "--out", dir.toString()));
    }

    @Test
    void aPlainMpiProgramRunsWithAGrowingLog(@TempDir Path dir) throws Exception {
        int status = RewindCommand.execute(
                "bench",
                "logging",
                "--program",
                "plain",
                "--regimes",
                "growing",
                "--mode",
                "jobs",
                "--min-bytes",
                "1024",
                "--max-bytes",
                "1024",
                "--repeat",
                "1",
                "--warm-up",
                "0",
                "--batches",
                "1",
                "--work-scale",
                "0.01",
                "--backends",
                "off-heap",
                "--copies",
                "hybrid",
                "--no-tracking-only",
                "--out",
                dir.toString());
        assertEquals(0, status);
        List<String> csv = Files.readAllLines(dir.resolve("logging.csv"));
        assertEquals(1 + 2, csv.size(), String.join("\n", csv));
        String md = Files.readString(dir.resolve("logging.md"));
        assertTrue(md.contains("PlainPingPong") && md.contains("Largest payload log held"), md);
    }

    @Test
    void rejectsUnknownBackendModeAndPages(@TempDir Path dir) {
        assertEquals(2, RewindCommand.execute("bench", "logging", "--regimes", "sometimes", "--out", dir.toString()));
        assertEquals(2, RewindCommand.execute("bench", "logging", "--prepare", "never", "--out", dir.toString()));
        assertEquals(2, RewindCommand.execute("bench", "logging", "--program", "plain", "--out", dir.toString()));
        assertEquals(
                2,
                RewindCommand.execute(
                        "bench",
                        "logging",
                        "--program",
                        "plain",
                        "--regimes",
                        "steady",
                        "--mode",
                        "jobs",
                        "--out",
                        dir.toString()));
        assertEquals(2, RewindCommand.execute("bench", "logging", "--mode", "parallel", "--out", dir.toString()));
        assertEquals(2, RewindCommand.execute("bench", "logging", "--backends", "tape", "--out", dir.toString()));
        assertEquals(2, RewindCommand.execute("bench", "logging", "--pages", "giant", "--out", dir.toString()));
    }
}
