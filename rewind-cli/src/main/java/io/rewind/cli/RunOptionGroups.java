package io.rewind.cli;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options of {@code rewind run} under headings (the program, launching, fault tolerance, the
 * payload log, logger nodes, fault injection, output), as a help section that replaces picocli's one
 * flat list: some seventy options read in one list only by searching it. The groups are named here,
 * by option, rather than by moving the options into picocli argument groups, which would change how
 * they are parsed and shared with {@code rewind mpirun}.
 */
final class RunOptionGroups implements CommandLine.IModelTransformer {
    /** A heading and the options under it, by their longest name. */
    record Group(String heading, List<String> options) {}

    static final List<Group> GROUPS = List.of(
            new Group(
                    "The program",
                    List.of(
                            "--np",
                            "--classpath",
                            "--jvm-option",
                            "--env",
                            "--timeout",
                            "--stall-timeout",
                            "--eager-limit")),
            new Group(
                    "Launching ranks as processes",
                    List.of(
                            "--launch",
                            "--hostfile",
                            "--rsh",
                            "--nodes",
                            "--shm",
                            "--heartbeat-timeout",
                            "--suspicion-threshold",
                            "--node-checkpoint-root")),
            new Group(
                    "Fault tolerance (the protocols' own options follow --protocol)",
                    List.of(
                            "--protocol",
                            "--on-failure",
                            "--spares",
                            "--checkpoint-every",
                            "--keep-lines",
                            "--checkpoint-dir",
                            "--resume",
                            "--verify-replays",
                            "--collective-logging")),
            new Group(
                    "The payload log",
                    List.of(
                            "--log-backend",
                            "--log-copy",
                            "--log-dir",
                            "--log-reserve",
                            "--log-huge-pages",
                            "--log-prepare-ahead",
                            "--log-quota")),
            new Group(
                    "Logger nodes",
                    List.of(
                            "--loggers",
                            "--logger-memory",
                            "--logger-replicas",
                            "--logger-dir",
                            "--logger-hosts",
                            "--dump-alpha",
                            "--kill-logger")),
            new Group("Fault injection", List.of("--kill", "--chaos", "--chaos-span", "--lose-node", "--freeze-node")),
            new Group(
                    "Output and records",
                    List.of(
                            "--no-tag-output",
                            "--quiet",
                            "--no-status",
                            "--summary",
                            "--summary-file",
                            "--record",
                            "--no-record",
                            "--profile",
                            "--jfr",
                            "--help",
                            "--version")));

    /** {@code run}'s model: the protocols' options added, then every option shown under its heading. */
    @Override
    public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec spec) {
        new ProtocolOptionsCli().transform(spec);
        var sections = spec.usageMessage().sectionMap();
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, RunOptionGroups::render);
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, help -> "");
        return spec;
    }

    private static String render(Help help) {
        List<OptionSpec> options = help.commandSpec().options();
        Set<OptionSpec> shown = new HashSet<>();
        StringBuilder out = new StringBuilder();
        for (Group g : GROUPS) {
            List<OptionSpec> in = new ArrayList<>();
            // The protocols' own options (added by ProtocolOptionsCli) go right after --protocol's group.
            for (String name : g.options()) {
                for (OptionSpec o : options) {
                    if (!o.hidden() && o.longestName().equals(name)) {
                        in.add(o);
                    }
                }
            }
            if (g.options().contains("--protocol")) {
                for (OptionSpec o : options) {
                    if (!o.hidden()
                            && !ProtocolOptionsCli.owners(o.longestName()).isEmpty()) {
                        in.add(o);
                    }
                }
            }
            out.append(section(help, g.heading(), in, shown));
        }
        List<OptionSpec> rest = new ArrayList<>();
        for (OptionSpec o : options) {
            if (!o.hidden() && !shown.contains(o)) {
                rest.add(o);
            }
        }
        out.append(section(help, "Other options", rest, shown));
        return out.toString();
    }

    private static String section(Help help, String heading, List<OptionSpec> in, Set<OptionSpec> shown) {
        if (in.isEmpty()) {
            return "";
        }
        Help.Layout layout = help.createDefaultLayout();
        for (OptionSpec o : in) {
            if (shown.add(o)) {
                layout.addOption(o, help.parameterLabelRenderer());
            }
        }
        return String.format("%n%s:%n", heading) + layout;
    }
}
