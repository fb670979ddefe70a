package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Options a command cannot take are answered in a few lines, not with the whole usage. */
class ParseErrorTest {
    @Test
    void anUnknownOptionIsOneLineAGuessAndWhereTheOptionsAre() {
        CommandRun r = CommandRun.of("run", "--protocl", "pessimistic", "com.example.Main");
        assertEquals(2, r.status());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.size() <= 3, r.err());
        assertTrue(lines.getFirst().startsWith("rewind run: Unknown option: '--protocl'"), r.err());
        assertTrue(r.err().contains("--protocol"), "a guess at what was meant: " + r.err());
        assertEquals("See 'rewind run --help' for its options.", lines.getLast());
        assertEquals("", r.out());
    }

    @Test
    void aValueThatCannotBeReadIsOneLineAndWhereTheOptionsAre() {
        // Open MPI's -np reads as -n with the value "p".
        CommandRun r = CommandRun.of("run", "-np", "4", "com.example.Main");
        assertEquals(2, r.status());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.size() <= 3, r.err());
        assertTrue(lines.getFirst().startsWith("rewind run: "), r.err());
        assertTrue(lines.getFirst().contains("'p'"), r.err());
        assertEquals("See 'rewind run --help' for its options.", lines.getLast());
    }

    @Test
    void helpIsWrappedToTheColumnsTheShellExports() {
        assertEquals(120, RewindCommand.columns("120"));
        assertEquals(55, RewindCommand.columns("20"));
        assertEquals(0, RewindCommand.columns(null));
        assertEquals(0, RewindCommand.columns("wide"));
    }
}
