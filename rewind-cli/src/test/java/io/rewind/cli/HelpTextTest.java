package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's help renders as written. Picocli formats descriptions as format strings, so a bare
 * {@code %} in one (a percentage) makes it print a warning and show the raw text instead.
 */
class HelpTextTest {

    @Test
    void everyCommandsHelpRendersWithoutAWarning() {
        List<String> problems = new ArrayList<>();
        List<CommandLine> commands = new ArrayList<>();
        collect(new CommandLine(new RewindCommand()), commands);
        PrintStream err = System.err;
        for (CommandLine c : commands) {
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            String usage;
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                usage = c.getUsageMessage();
            } finally {
                System.setErr(err);
            }
            String warnings = captured.toString(StandardCharsets.UTF_8);
            if (!warnings.isEmpty()) {
                problems.add(c.getCommandSpec().qualifiedName() + ": "
                        + warnings.lines().findFirst().orElse(""));
            }
            assertTrue(usage.contains("Usage: "), usage);
        }
        assertTrue(commands.size() > 10, "found only " + commands.size() + " commands");
        assertEquals(List.of(), problems);
    }

    private static void collect(CommandLine c, List<CommandLine> out) {
        out.add(c);
        for (CommandLine sub : c.getSubcommands().values()) {
            if (!out.contains(sub)) {
                collect(sub, out);
            }
        }
    }
}
