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

    /**
     * Every command's summary in its parent's list is one whole sentence, and every paragraph of its
     * description ends a sentence: a line break written by hand inside a sentence shows as a sentence
     * cut short in the list, or broken mid-line at any width but the one it was written for.
     */
    @Test
    void summariesAndParagraphsAreWholeSentences() {
        List<String> problems = new ArrayList<>();
        List<CommandLine> commands = new ArrayList<>();
        collect(new CommandLine(new RewindCommand()), commands);
        for (CommandLine c : commands) {
            CommandLine.Model.UsageMessageSpec u = c.getCommandSpec().usageMessage();
            String name = c.getCommandSpec().qualifiedName();
            if (c.getCommand() instanceof CommandLine.HelpCommand) {
                continue;
            }
            String summary =
                    u.header().length > 0 ? u.header()[0] : u.description().length > 0 ? u.description()[0] : "";
            boolean listed = c.getParent() != null;
            if (listed && (!summary.endsWith(".") || summary.length() > 100)) {
                problems.add(name + ": summary not one short sentence: " + summary);
            }
            for (CommandLine.Model.OptionSpec o : c.getCommandSpec().options()) {
                for (String line : o.description()) {
                    String l = line.strip();
                    // A line of an option's help ends a sentence, or an item of a list (';').
                    if (!l.isEmpty() && !l.matches(".*[.:;)]$")) {
                        problems.add(name + " " + o.longestName() + ": help line cut mid-sentence: " + l);
                    }
                }
            }
            for (String paragraph : u.description()) {
                boolean example = paragraph.startsWith(" ");
                if (!paragraph.isBlank() && !example && !(paragraph.endsWith(".") || paragraph.endsWith(":"))) {
                    problems.add(name + ": paragraph cut mid-sentence: " + paragraph);
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    /** Help fits the width it is asked for: no line of any command's help is wider. */
    @Test
    void helpFitsEightyAndAHundredAndTwentyColumns() {
        List<String> problems = new ArrayList<>();
        for (int width : new int[] {80, 120}) {
            List<CommandLine> commands = new ArrayList<>();
            collect(new CommandLine(new RewindCommand()).setUsageHelpWidth(width), commands);
            for (CommandLine c : commands) {
                c.getCommandSpec().usageMessage().width(width);
                c.getUsageMessage()
                        .lines()
                        .filter(l -> l.length() > width)
                        .forEach(l -> problems.add(c.getCommandSpec().qualifiedName() + " at " + width + ": " + l));
            }
        }
        assertEquals(List.of(), problems);
    }

    /** {@code run --help} shows every option under one of its headings, none left over. */
    @Test
    void runsOptionsAreGroupedUnderHeadings() {
        CommandLine run = new CommandLine(new RewindCommand()).getSubcommands().get("run");
        String usage = run.getUsageMessage();
        for (RunOptionGroups.Group g : RunOptionGroups.GROUPS) {
            assertTrue(usage.contains("\n" + g.heading() + ":\n"), g.heading() + " missing from\n" + usage);
        }
        assertTrue(!usage.contains("Other options:"), "options outside every group:\n" + usage);
        assertTrue(usage.contains("--switch-off"), "the protocols' own options are listed");
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
