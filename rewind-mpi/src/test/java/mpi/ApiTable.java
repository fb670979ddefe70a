package mpi;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Writes the markdown of docs/api.md's API table: an overview with one line per Open MPI class (counts
 * of same, differing and absent members), then each class's rows in a collapsible section, then what
 * only Rewind has.
 */
final class ApiTable {

    private static final Pattern QUALIFIER = Pattern.compile("\\b(?:java\\.lang|java\\.nio|mpi)\\.");

    private ApiTable() {}

    /** A class name stripped of the packages every reader knows: {@code java.lang.Object} is {@code Object}. */
    static String shortTypes(String text) {
        return QUALIFIER.matcher(text).replaceAll("");
    }

    /** How a row names a member: {@code static send(Object, int)}, {@code new Op(UserFunction, boolean)}, {@code COMM_WORLD}. */
    static String display(ApiSignature s) {
        if (s.isClass()) {
            return shortTypes(s.line().replaceFirst("^public ", ""));
        }
        String member = shortTypes(s.member()).replace(",", ", ");
        if (member.startsWith(ApiSignature.CONSTRUCTOR)) {
            member = "new " + s.owner() + member.substring(ApiSignature.CONSTRUCTOR.length());
        }
        List<String> prefix = new ArrayList<>();
        if (s.modifiers().contains("protected")) {
            prefix.add("protected");
        }
        if (s.modifiers().contains("static")) {
            prefix.add("static");
        }
        prefix.add(member);
        return String.join(" ", prefix);
    }

    static String render(
            String source, List<ApiComparison.Entry> entries, ApiNotes notes, Map<String, List<String>> rewindOnly) {
        Map<String, List<ApiComparison.Entry>> byClass = new LinkedHashMap<>();
        for (ApiComparison.Entry e : entries) {
            byClass.computeIfAbsent(e.reference().owner(), k -> new ArrayList<>())
                    .add(e);
        }
        StringBuilder md = new StringBuilder();
        Map<ApiComparison.Status, Integer> total = count(entries);
        md.append(source)
                .append(": ")
                .append(byClass.size())
                .append(" classes and ")
                .append(entries.size() - byClass.size())
                .append(" members. Of the ")
                .append(entries.size())
                .append(" entries, ")
                .append(summary(total))
                .append(".\n\n");
        md.append("| Class | Same | Differs | Absent | Why absent |\n|---|---:|---:|---:|---|\n");
        for (var group : byClass.entrySet()) {
            Map<ApiComparison.Status, Integer> n = count(group.getValue());
            ApiComparison.Entry classEntry = group.getValue().getFirst();
            String why = classEntry.status() == ApiComparison.Status.ABSENT
                    ? notes.noteFor(classEntry).map(ApiNotes.Note::reason).orElse("")
                    : "";
            md.append("| `%s` | %d | %d | %d | %s |\n"
                    .formatted(
                            group.getKey(),
                            n.get(ApiComparison.Status.SAME),
                            n.get(ApiComparison.Status.DIFFERS),
                            n.get(ApiComparison.Status.ABSENT),
                            why));
        }
        for (var group : byClass.entrySet()) {
            md.append("\n<details><summary><code>")
                    .append(group.getKey())
                    .append("</code>: ")
                    .append(summary(count(group.getValue())))
                    .append("</summary>\n\n| Member | Status | Note |\n|---|---|---|\n");
            String lastNoteKey = null;
            for (ApiComparison.Entry e : group.getValue()) {
                Optional<ApiNotes.Note> note =
                        e.status() == ApiComparison.Status.SAME ? Optional.empty() : notes.noteFor(e);
                String reason = note.map(ApiNotes.Note::reason).orElse("");
                // a note that covers several rows in a row (a class, every overload) is written once
                if (note.isPresent() && note.get().key().equals(lastNoteKey)) {
                    reason = "as above";
                }
                lastNoteKey = note.map(ApiNotes.Note::key).orElse(null);
                String cell = e.how().isEmpty() ? reason : reason.isEmpty() ? e.how() : e.how() + ". " + reason;
                md.append("| `%s` | %s | %s |\n"
                        .formatted(display(e.reference()), e.status().word(), cell));
            }
            md.append("\n</details>\n");
        }
        md.append("\nRewind only (public classes and members of Rewind's `mpi` that Open MPI lacks):\n\n");
        if (rewindOnly.isEmpty()) {
            md.append("* none\n");
        }
        rewindOnly.forEach((owner, members) -> md.append("* `")
                .append(owner)
                .append("`: ")
                .append(members.stream().map(m -> "`" + m + "`").collect(Collectors.joining(", ")))
                .append('\n'));
        return md.toString();
    }

    private static Map<ApiComparison.Status, Integer> count(List<ApiComparison.Entry> entries) {
        Map<ApiComparison.Status, Integer> n = new EnumMap<>(ApiComparison.Status.class);
        for (ApiComparison.Status s : ApiComparison.Status.values()) {
            n.put(s, 0);
        }
        entries.forEach(e -> n.merge(e.status(), 1, Integer::sum));
        return n;
    }

    private static String summary(Map<ApiComparison.Status, Integer> n) {
        return "%d same, %d differ, %d absent"
                .formatted(
                        n.get(ApiComparison.Status.SAME),
                        n.get(ApiComparison.Status.DIFFERS),
                        n.get(ApiComparison.Status.ABSENT));
    }
}
