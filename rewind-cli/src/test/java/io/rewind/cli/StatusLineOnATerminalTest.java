package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code rewind run} on a real terminal: a detached tmux session runs it, and the screen is read
 * while the job runs and after. The status line is there while it runs, the failure and the recovery
 * are announced above it, no program line has the status line inside it, and at the end it is gone.
 */
@Tag("process")
class StatusLineOnATerminalTest {
    private static final Pattern STATUS = Pattern.compile(
            "rewind: \\d+\\.\\d s  \\d/4 running  point \\d+  \\d+ checkpoints?  \\d+ failures?, \\d+ recovered");

    private static String tmux(String... args) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(args)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "tmux answers");
        return out;
    }

    private static boolean tmuxInstalled() {
        try {
            return new ProcessBuilder("tmux", "-V").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void theStatusLineIsRedrawnInPlaceAndClearedForEveryOtherLine(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        assumeTrue(tmuxInstalled(), "tmux is installed");
        String session = "rewind-status-" + ProcessHandle.current().pid();
        Path script = dir.resolve("job.sh");
        // As the rewind script starts it (native access allowed: no JVM warning of its own on the screen).
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(
                script,
                "cd '" + dir + "'\n'" + java + "' --enable-native-access=ALL-UNNAMED -cp '"
                        + System.getProperty("java.class.path") + "' "
                        + RewindCommand.class.getName() + " run -n 4 --protocol pessimistic --checkpoint-every 20"
                        + " --kill 2@130 --no-record --timeout 120s io.rewind.apps.workloads.Stencil2D 256 400\n"
                        + "echo \"EXIT=$?\"\n");
        tmux("tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "50", "sh " + script + "; sleep 600");
        try {
            boolean sawStatus = false;
            String screen = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (!screen.contains("EXIT=") && System.nanoTime() < deadline) {
                screen = tmux("tmux", "capture-pane", "-p", "-t", session);
                sawStatus |= screen.lines().anyMatch(l -> STATUS.matcher(l).matches());
                Thread.sleep(100); // the screen is read every 100 ms: what it shows is the test's subject
            }
            assertTrue(screen.contains("EXIT=0"), screen);
            assertTrue(sawStatus, "the status line while the job ran");
            assertTrue(
                    Pattern.compile(
                                    "(?m)^rewind: rank 2 failed at \\d+\\.\\d s \\(killed: --kill 2@130\\); restarting it"
                                            + " from line \\d+ \\(1 of 4 ranks roll back\\)$")
                            .matcher(screen)
                            .find(),
                    screen);
            assertTrue(
                    Pattern.compile("(?m)^rewind: rank 2 recovered at \\d+\\.\\d s: line \\d+ restored, .* caught up in"
                                    + " \\d+ ms$")
                            .matcher(screen)
                            .find(),
                    screen);
            assertTrue(
                    Pattern.compile("(?m)^\\[0\\] stencil n=256 sweeps=400 .*bits=[0-9a-f]+$")
                            .matcher(screen)
                            .find(),
                    "the program's line whole, on a line of its own: " + screen);
            assertFalse(screen.lines().anyMatch(l -> STATUS.matcher(l).find()), "cleared at the end: " + screen);
            assertEquals(
                    1,
                    screen.lines()
                            .filter(l -> l.startsWith("rewind: protocol pessimistic, 4 ranks"))
                            .count(),
                    "the summary, on standard error: " + screen);
        } finally {
            tmux("tmux", "kill-session", "-t", session);
        }
    }
}
