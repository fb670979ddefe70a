package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.notice.RuntimeNotices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a rank's threads print is the rank's output; what the runtime says on those threads is not: a
 * notice printed on a rank's thread (a link to a logger that broke, say) goes where threads of no rank
 * print, and the rank's lines stay those of its program.
 */
class OutputRouterTest {
    @Test
    void aNoticeOnARanksThreadIsNotALineOfTheRanksOutput() throws Exception {
        PrintStream saved = System.err;
        ByteArrayOutputStream unrouted = new ByteArrayOutputStream();
        ByteArrayOutputStream rankErr = new ByteArrayOutputStream();
        OutputRouter.RankOutput output =
                new OutputRouter.RankOutput(3, true, null, new PrintStream(rankErr, true, StandardCharsets.UTF_8));
        try {
            System.setErr(new PrintStream(unrouted, true, StandardCharsets.UTF_8));
            OutputRouter.install();
            Thread rank = Thread.ofPlatform().unstarted(() -> {
                OutputRouter.bind(output, () -> true);
                System.err.println("the program's line");
                RuntimeNotices.print("rewind: link rank-3.0-logger-0: cannot send Request");
                System.err.println("the program's next line");
            });
            rank.start();
            rank.join();
        } finally {
            System.setErr(saved);
        }
        assertEquals(List.of("the program's line", "the program's next line"), output.lines());
        assertEquals("[3] the program's line\n[3] the program's next line\n", rankErr.toString(StandardCharsets.UTF_8));
        String elsewhere = unrouted.toString(StandardCharsets.UTF_8);
        assertTrue(elsewhere.contains("rewind: link rank-3.0-logger-0: cannot send Request"), elsewhere);
        assertTrue(!elsewhere.contains("the program's"), elsewhere);
    }
}
