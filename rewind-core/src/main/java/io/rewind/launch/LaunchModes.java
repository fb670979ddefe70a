package io.rewind.launch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The ways of launching a job's processes by name, as {@code rewind run --launch NAME} picks them:
 * {@code local}, {@code ssh} and {@code slurm}, and any other a {@link Provider} on the class path
 * registers. Adding a way of launching is one class implementing {@link LaunchMode}, and one
 * implementing {@link Provider} named in {@code META-INF/services/io.rewind.launch.LaunchModes$Provider}.
 */
public final class LaunchModes {
    /** What the command line says of where a job's processes go, for a mode to read what it needs. */
    public record Options(int nodes, Path hostfile, List<String> remoteShell) {}

    /** A way of launching, by name: its {@link Launch} from the command line's options. */
    public interface Provider {
        /** Its name, as {@code --launch} spells it. */
        String name();

        /** The job's launch; an {@link IllegalArgumentException}, with its one-line reason, if the options do not do. */
        Launch launch(Options options);
    }

    private static final Map<String, Provider> MODES = modes();

    private LaunchModes() {}

    private static Map<String, Provider> modes() {
        Map<String, Provider> modes = new LinkedHashMap<>();
        add(modes, new Shipped("local", o -> Launch.local(o.nodes())));
        add(modes, new Shipped("ssh", o -> {
            if (o.hostfile() == null) {
                throw new IllegalArgumentException("--launch ssh needs --hostfile FILE");
            }
            return Launch.ssh(o.hostfile(), o.remoteShell());
        }));
        add(modes, new Shipped("slurm", o -> Launch.slurm()));
        for (Provider p : ServiceLoader.load(Provider.class, LaunchModes.class.getClassLoader())) {
            add(modes, p);
        }
        return Map.copyOf(modes);
    }

    private static void add(Map<String, Provider> modes, Provider p) {
        if (modes.putIfAbsent(p.name(), p) != null) {
            throw new IllegalStateException("two ways of launching are named " + p.name());
        }
    }

    /** A way of launching Rewind ships: its name and how the command line's options make its launch. */
    private record Shipped(String name, java.util.function.Function<Options, Launch> launcher) implements Provider {
        @Override
        public Launch launch(Options options) {
            return launcher.apply(options);
        }
    }

    /** The launch of mode {@code name}; an {@link IllegalArgumentException} for a name no mode has. */
    public static Launch launch(String name, Options options) {
        Provider p = MODES.get(name);
        if (p == null) {
            throw new IllegalArgumentException(
                    "unknown --launch " + name + " (expected threads, " + String.join(", ", names()) + ")");
        }
        return p.launch(options);
    }

    /** The names of the ways of launching processes: the three Rewind ships first, then the others by name. */
    public static List<String> names() {
        List<String> names = new ArrayList<>(List.of("local", "ssh", "slurm"));
        MODES.keySet().stream().filter(n -> !names.contains(n)).sorted().forEach(names::add);
        return names;
    }
}
