package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rewind mpirun} for real, as a command of its own (a JVM running {@link RewindCommand}, its
 * standard output read whole): ranks as processes of this machine get the JVM options and the
 * environment of the command line, and a killed rank recovers to the output of a failure-free run.
 */
@Tag("process")
class MpirunProcessTest {
    private static final long TIMEOUT_SECONDS = 240;

    @TempDir
    Path dir;

    /** What a command printed (standard output and error, in that order) and its exit status. */
    private record Ran(int status, String out, String err) {}

    private Ran rewind(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                RewindCommand.class.getName()));
        cmd.addAll(args);
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("REWIND_TEST_X", "from-the-launcher");
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("rewind " + args + " did not end within " + TIMEOUT_SECONDS + " s");
        }
        return new Ran(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void rankJvmsGetTheJvmOptionsThePropertyAndTheEnvironment() throws Exception {
        String classes = ParseErrorTest.classesOf(io.rewind.cliprograms.ShowsJvmSettings.class);
        Ran r = rewind(List.of(
                "mpirun",
                "-np",
                "2",
                "-x",
                "REWIND_TEST_X",
                "--mca",
                "btl",
                "self",
                "--no-record",
                "java",
                "-Xmx256m",
                "-Dfoo=bar",
                "-cp",
                classes,
                "io.rewind.cliprograms.ShowsJvmSettings",
                "a b"));
        assertEquals(0, r.status(), r.out() + r.err());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(
                    r.out()
                            .contains("[" + rank + "] rank " + rank
                                    + " xmx256m=true foo=bar env=from-the-launcher args=a b"),
                    r.out() + r.err());
        }
        assertTrue(r.err().contains("rewind mpirun: --mca btl self ignored"), r.err());
        Ran set = rewind(List.of(
                "mpirun",
                "-np",
                "1",
                "-x",
                "REWIND_TEST_X=given",
                "--no-record",
                "java",
                "-cp",
                classes,
                "io.rewind.cliprograms.ShowsJvmSettings"));
        assertEquals(0, set.status(), set.out() + set.err());
        assertTrue(set.out().contains("xmx256m=false foo=null env=given"), set.out());
    }

    @Test
    void aKilledRankRecoversToTheOutputOfAFailureFreeRun() throws Exception {
        String classes = ParseErrorTest.classesOf(io.rewind.apps.workloads.Stencil2D.class);
        List<String> program = List.of("java", "-cp", classes, "io.rewind.apps.workloads.Stencil2D", "32", "24");
        List<String> plain = new ArrayList<>(List.of("mpirun", "-np", "2", "--no-record"));
        plain.addAll(program);
        Ran reference = rewind(plain);
        assertEquals(0, reference.status(), reference.out() + reference.err());
        List<String> killed = new ArrayList<>(List.of(
                "mpirun",
                "-np",
                "2",
                "--no-record",
                "--protocol",
                "pessimistic",
                "--checkpoint-every",
                "6",
                "--kill",
                "1@15"));
        killed.addAll(program);
        Ran recovered = rewind(killed);
        assertEquals(0, recovered.status(), recovered.out() + recovered.err());
        assertTrue(recovered.err().contains("failure: rank 1"), recovered.err()); // the summary
        assertEquals(programLines(reference.out()), programLines(recovered.out()));
        assertFalse(programLines(reference.out()).isEmpty(), reference.out());
    }

    @Test
    void aMainClassNotFoundIsOneLineBeforeAnyRankStarts() throws Exception {
        Ran r = rewind(List.of("mpirun", "-np", "2", "java", "-cp", dir.toString(), "com.example.Missing"));
        assertEquals(2, r.status(), r.out() + r.err());
        assertEquals(
                List.of("rewind mpirun: main class com.example.Missing not found in " + dir
                        + " (-cp CLASSPATH names the jars and folders of the program's classes)"),
                r.err().lines().toList());
    }

    /** The program's own output: the lines tagged with a rank, sorted. */
    private static List<String> programLines(String out) {
        return out.lines().filter(l -> l.matches("\\[\\d+\\] .*")).sorted().toList();
    }
}
