package io.rewind.cli;

import io.rewind.launch.Launch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Open MPI's {@code mpirun} command line, read by hand: Open MPI's long options take one dash
 * ({@code -np 4}, {@code -hostfile F}), which picocli would read as clustered short options
 * ({@code -n p}). {@link #parse} reads the words into {@link Parsed}; {@link #toRun} maps them onto
 * the arguments of {@code rewind run}, which runs the job.
 */
final class MpirunArguments {
    private MpirunArguments() {}

    /** An Open MPI option {@code rewind mpirun} takes: its spellings, its value's label (null: none) and what it does. */
    record OpenMpiOption(List<String> names, String label, String description) {}

    /** The Open MPI options taken, in the order help lists them. */
    static final List<OpenMpiOption> OPTIONS = List.of(
            new OpenMpiOption(
                    List.of("-np", "-n", "--np", "--n"),
                    "N",
                    "Number of ranks (default: the slots of the hosts, SLURM_NTASKS in a Slurm allocation, else "
                            + "this machine's processors)."),
            new OpenMpiOption(
                    List.of("--hostfile", "-hostfile", "--machinefile", "-machinefile"),
                    "FILE",
                    "The hosts (host [slots=N] per line): ranks as processes on them, started over ssh."),
            new OpenMpiOption(
                    List.of("-H", "--host", "-host"),
                    "HOST[:SLOTS],...",
                    "The hosts as a list (a host without :SLOTS has one slot): ranks over ssh, as with --hostfile."),
            new OpenMpiOption(
                    List.of("--oversubscribe", "-oversubscribe"),
                    null,
                    "Allow more ranks than slots (the extra ranks go round the hosts again); without it, -np "
                            + "beyond the slots is refused, as Open MPI does."),
            new OpenMpiOption(
                    List.of("-x"),
                    "NAME[=VALUE]",
                    "Set NAME in every rank's environment, to VALUE or, with NAME alone, to its value here."),
            new OpenMpiOption(
                    List.of("--bind-to", "-bind-to"),
                    "none",
                    "Only none is taken (the JVM places its own threads); any other binding is refused."),
            new OpenMpiOption(
                    List.of("--map-by", "-map-by"),
                    "slot|node",
                    "slot (the default: each host's slots filled in turn); node (round robin over hosts) only "
                            + "where it places ranks as slot does, on one host."),
            new OpenMpiOption(
                    List.of("--mca", "-mca"),
                    "KEY VALUE",
                    "Accepted and ignored, with a note: Rewind has no MCA parameters."),
            new OpenMpiOption(
                    List.of("--allow-run-as-root", "--tag-output", "-tag-output"),
                    null,
                    "Accepted: Rewind runs as any user and tags output lines with [rank] anyway."));

    /**
     * An mpirun command line as read, before any host or slot is looked at.
     *
     * @param np            {@code -np}, or null
     * @param hostfile      {@code --hostfile}, or null
     * @param hosts         the {@code -H} lists, as given
     * @param oversubscribe {@code --oversubscribe}
     * @param environment   the {@code -x} settings, as given
     * @param mapBy         {@code --map-by}, or null
     * @param notes         a line each for what was accepted and ignored
     * @param rewindOptions the {@code rewind run} options given, in order, with their values
     * @param launch        {@code --launch} among them, or null
     * @param program       the program and its arguments ({@code java ...} or a main class)
     * @param help          {@code -h}/{@code --help}: help, nothing else
     * @param version       {@code -V}/{@code --version}: the version, nothing else
     */
    record Parsed(
            Integer np,
            Path hostfile,
            List<String> hosts,
            boolean oversubscribe,
            List<String> environment,
            String mapBy,
            List<String> notes,
            List<String> rewindOptions,
            String launch,
            List<String> program,
            boolean help,
            boolean version) {}

    private static final Set<String> HELP = Set.of("-h", "--help", "-help");
    private static final Set<String> VERSION = Set.of("-V", "--version", "-version");

    private static boolean is(String word, int option) {
        return OPTIONS.get(option).names().contains(word);
    }

    /**
     * Reads {@code words}: Open MPI's options, {@code rewind run}'s ({@code runOptions}: each name,
     * whether it takes a value), then the program. An {@link IllegalArgumentException} with a one-line
     * reason for what it cannot take.
     */
    static Parsed parse(List<String> words, Map<String, Boolean> runOptions) {
        Integer np = null;
        Path hostfile = null;
        List<String> hosts = new ArrayList<>();
        boolean oversubscribe = false;
        List<String> env = new ArrayList<>();
        String mapBy = null;
        List<String> notes = new ArrayList<>();
        List<String> rewind = new ArrayList<>();
        String launch = null;
        int i = 0;
        while (i < words.size() && words.get(i).startsWith("-")) {
            String w = words.get(i);
            if (HELP.contains(w) || VERSION.contains(w)) {
                return new Parsed(
                        null,
                        null,
                        List.of(),
                        false,
                        List.of(),
                        null,
                        List.of(),
                        List.of(),
                        null,
                        List.of(),
                        HELP.contains(w),
                        VERSION.contains(w));
            } else if (is(w, 0)) {
                String v = value(words, i);
                try {
                    np = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    np = 0;
                }
                if (np < 1) {
                    throw new IllegalArgumentException(
                            w + " " + v + ": the number of ranks must be a whole number, 1 or more");
                }
                i += 2;
            } else if (is(w, 1)) {
                hostfile = Path.of(value(words, i));
                i += 2;
            } else if (is(w, 2)) {
                hosts.add(value(words, i));
                i += 2;
            } else if (is(w, 3)) {
                oversubscribe = true;
                i++;
            } else if (is(w, 4)) {
                env.add(value(words, i));
                i += 2;
            } else if (is(w, 5)) {
                String v = value(words, i);
                if (!v.equals("none")) {
                    throw new IllegalArgumentException(w + " " + v + " cannot be honoured: the JVM places its "
                            + "threads itself (--bind-to none is taken)");
                }
                i += 2;
            } else if (is(w, 6)) {
                mapBy = value(words, i);
                if (!mapBy.equals("slot") && !mapBy.equals("node")) {
                    throw new IllegalArgumentException(w + " " + mapBy + " cannot be honoured: ranks fill each host's "
                            + "slots in turn (--map-by slot; node on one host)");
                }
                i += 2;
            } else if (is(w, 7)) {
                if (i + 2 >= words.size()) {
                    throw new IllegalArgumentException(w + " needs a KEY and a VALUE");
                }
                notes.add(
                        w + " " + words.get(i + 1) + " " + words.get(i + 2) + " ignored: Rewind has no MCA parameters");
                i += 3;
            } else if (is(w, 8)) {
                i++;
            } else if (runOptions.containsKey(optionName(w))) {
                boolean takesValue = runOptions.get(optionName(w)) && !w.contains("=");
                rewind.add(w);
                if (takesValue) {
                    rewind.add(value(words, i));
                }
                if (optionName(w).equals("--launch")) {
                    launch = w.contains("=") ? w.substring(w.indexOf('=') + 1) : words.get(i + 1);
                }
                i += takesValue ? 2 : 1;
            } else {
                throw new IllegalArgumentException("unknown option " + w
                        + ": neither an Open MPI option Rewind takes nor a rewind run option "
                        + "(see 'rewind mpirun --help')");
            }
        }
        if (i == words.size()) {
            throw new IllegalArgumentException(
                    "no program: give java [JVM options] -cp CLASSPATH MAIN_CLASS [ARGS] or java -jar JAR [ARGS]");
        }
        return new Parsed(
                np,
                hostfile,
                hosts,
                oversubscribe,
                env,
                mapBy,
                notes,
                rewind,
                launch,
                List.copyOf(words.subList(i, words.size())),
                false,
                false);
    }

    private static String optionName(String word) {
        int eq = word.indexOf('=');
        return eq > 0 && word.startsWith("--") ? word.substring(0, eq) : word;
    }

    private static String value(List<String> words, int i) {
        if (i + 1 >= words.size()) {
            throw new IllegalArgumentException(words.get(i) + " needs a value");
        }
        return words.get(i + 1);
    }

    /**
     * What the launcher's surroundings say of where ranks may go.
     *
     * @param environment the launcher's environment (SLURM_JOB_ID, SLURM_NTASKS, SLURM_JOB_NUM_NODES)
     * @param processors  this machine's processors: the slots of a job on it
     * @param scratch     where a hostfile made from {@code -H} (or one with slots added by
     *                    {@code --oversubscribe}) is written
     */
    record Surroundings(Map<String, String> environment, int processors, Path scratch) {}

    /**
     * The arguments of {@code rewind run} that run the job: the launch mode (with a hostfile or host
     * list: ssh; in a Slurm allocation: slurm; else ranks as processes of this machine, local), the
     * number of ranks checked against the slots, the environment, the Rewind options, and the program.
     */
    static List<String> toRun(Parsed p, Surroundings here) {
        boolean hostsGiven = p.hostfile() != null || !p.hosts().isEmpty();
        if (p.hostfile() != null && !p.hosts().isEmpty()) {
            throw new IllegalArgumentException("give the hosts once: --hostfile or -H, not both");
        }
        String launch = p.launch() != null
                ? p.launch()
                : hostsGiven ? "ssh" : here.environment().containsKey("SLURM_JOB_ID") ? "slurm" : "local";
        if (hostsGiven && !launch.equals("ssh")) {
            throw new IllegalArgumentException(
                    (p.hostfile() != null ? "--hostfile" : "-H") + " places ranks over ssh, but --launch is " + launch);
        }
        List<Launch.Node> nodes = null; // the ssh hosts
        Integer slots = null; // null: no limit known
        String where;
        switch (launch) {
            case "ssh" -> {
                if (!hostsGiven) {
                    throw new IllegalArgumentException("--launch ssh needs the hosts: --hostfile FILE or -H HOST,...");
                }
                nodes = p.hostfile() != null
                        ? Launch.ssh(p.hostfile(), List.of("ssh")).nodes()
                        : hostList(p.hosts());
                slots = nodes.stream().mapToInt(Launch.Node::slots).sum();
                where = "the hosts";
            }
            case "slurm" -> {
                String tasks = here.environment()
                        .getOrDefault("SLURM_NTASKS", here.environment().get("SLURM_NPROCS"));
                slots = tasks == null || !tasks.trim().matches("[0-9]+") ? null : Integer.valueOf(tasks.trim());
                where = "the Slurm allocation (SLURM_NTASKS)";
            }
            case "threads" -> where = "";
            default -> {
                slots = here.processors();
                where = "this machine (its processors)";
            }
        }
        int np;
        if (p.np() != null) {
            np = p.np();
        } else if (slots != null) {
            np = slots;
        } else {
            throw new IllegalArgumentException("give the number of ranks: -np N");
        }
        if (slots != null && np > slots && !p.oversubscribe()) {
            throw new IllegalArgumentException(np + " ranks (-np " + np + ") but " + slots + " slot"
                    + (slots == 1 ? "" : "s") + " in " + where + ": give fewer ranks, more slots, or --oversubscribe");
        }
        if ("node".equals(p.mapBy())) {
            boolean oneNode = nodes != null
                    ? nodes.size() == 1
                    : !launch.equals("slurm") || "1".equals(here.environment().get("SLURM_JOB_NUM_NODES"));
            if (!oneNode) {
                throw new IllegalArgumentException("--map-by node (ranks round robin over hosts) cannot be honoured "
                        + "on several hosts: ranks fill each host's slots in turn (--map-by slot)");
            }
        }
        List<String> run = new ArrayList<>(p.rewindOptions());
        if (p.launch() == null) {
            run.add("--launch=" + launch);
        }
        if (nodes != null) {
            Path hostfile = p.hostfile();
            if (!p.hosts().isEmpty() || np > slots) {
                hostfile = write(oversubscribed(nodes, np), here.scratch());
            }
            run.add("--hostfile=" + hostfile);
        }
        run.add("--np=" + np);
        for (String e : p.environment()) {
            run.add("--env=" + e);
        }
        run.addAll(p.program());
        return run;
    }

    /** {@code -H h1,h2:2}: hosts, one slot each unless given; a host named twice adds its slots. */
    static List<Launch.Node> hostList(List<String> lists) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (String list : lists) {
            for (String h : list.split(",")) {
                String[] parts = h.split(":", -1);
                int n = 1;
                if (parts.length > 2 || parts[0].isBlank()) {
                    throw new IllegalArgumentException("-H " + list + ": not HOST[:SLOTS],...");
                }
                if (parts.length == 2) {
                    try {
                        n = Integer.parseInt(parts[1]);
                    } catch (NumberFormatException e) {
                        n = 0;
                    }
                    if (n < 1) {
                        throw new IllegalArgumentException(
                                "-H " + list + ": the slots of " + parts[0] + " must be a whole number, 1 or more");
                    }
                }
                slots.merge(parts[0], n, Integer::sum);
            }
        }
        List<Launch.Node> nodes = new ArrayList<>();
        slots.forEach((h, n) -> nodes.add(new Launch.Node(h, n)));
        return nodes;
    }

    /** The hosts with slots added one by one round them until {@code ranks} fit (as Open MPI oversubscribes). */
    static List<Launch.Node> oversubscribed(List<Launch.Node> nodes, int ranks) {
        int[] slots = nodes.stream().mapToInt(Launch.Node::slots).toArray();
        int total = java.util.Arrays.stream(slots).sum();
        for (int i = 0; total < ranks; i = (i + 1) % slots.length, total++) {
            slots[i]++;
        }
        List<Launch.Node> out = new ArrayList<>();
        for (int i = 0; i < slots.length; i++) {
            out.add(new Launch.Node(nodes.get(i).name(), slots[i]));
        }
        return out;
    }

    private static Path write(List<Launch.Node> nodes, Path scratch) {
        StringBuilder b = new StringBuilder();
        for (Launch.Node n : nodes) {
            b.append(n.name()).append(" slots=").append(n.slots()).append('\n');
        }
        try {
            Path f = Files.createTempFile(scratch, "rewind-mpirun-hosts-", ".txt");
            f.toFile().deleteOnExit();
            return Files.writeString(f, b);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot write the hosts to a hostfile in " + scratch + ": " + e.getMessage());
        }
    }
}
