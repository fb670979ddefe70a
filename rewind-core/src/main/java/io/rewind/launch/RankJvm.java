package io.rewind.launch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the user adds to every rank process: options for its JVM ({@code -Xmx2g}, {@code -Dk=v},
 * {@code -XX:...}, {@code --add-opens ...}), placed after Rewind's own so that they win, and
 * variables for its environment (Open MPI's {@code -x NAME=VALUE}). The launcher hands it to each
 * node agent on the agent's command line, as one word ({@link #encoded}), so that it reaches an agent
 * started over ssh or by srun as it reaches a local one, and the agent applies it to every rank
 * process it starts.
 *
 * @param options     JVM options, in order
 * @param environment variables set in each rank process's environment, over what the agent has
 */
public record RankJvm(List<String> options, Map<String, String> environment) {
    /** Nothing added: Rewind's own options and the agent's environment. */
    public static final RankJvm NONE = new RankJvm(List.of(), Map.of());

    public RankJvm {
        options = List.copyOf(options);
        environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        for (String name : environment.keySet()) {
            if (name.isEmpty() || name.contains("=")) {
                throw new IllegalArgumentException("not an environment variable's name: '" + name + "'");
            }
        }
    }

    /** Whether it adds nothing. */
    public boolean isEmpty() {
        return options.isEmpty() && environment.isEmpty();
    }

    /**
     * The whole as one command-line word (base64 of its UTF-8 strings, each length-prefixed): nothing
     * in an option or a value (spaces, quotes, newlines) can split or change it on the way.
     */
    String encoded() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(options.size());
            for (String o : options) {
                out.writeUTF(o);
            }
            out.writeInt(environment.size());
            for (Map.Entry<String, String> e : environment.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
    }

    /** What {@link #encoded} made. */
    static RankJvm decode(String word) {
        try (DataInputStream in = new DataInputStream(
                new ByteArrayInputStream(Base64.getUrlDecoder().decode(word)))) {
            List<String> options = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                options.add(in.readUTF());
            }
            Map<String, String> env = new LinkedHashMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                env.put(in.readUTF(), in.readUTF());
            }
            return new RankJvm(options, env);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read the rank processes' JVM settings: " + e.getMessage(), e);
        }
    }
}
