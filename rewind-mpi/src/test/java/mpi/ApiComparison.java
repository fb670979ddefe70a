package mpi;

import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Looks up each class and member of Open MPI's API in Rewind's package {@code mpi} (by reflection) and
 * says whether it is the same, differs (and how), or is absent. A member counts as present in a class
 * when a program can call it there, so one that Rewind declares in a superclass is found too.
 */
final class ApiComparison {

    enum Status {
        SAME,
        DIFFERS,
        ABSENT;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A reference entry, its status and, when it differs, how (generated); {@code classPresent} tells
     * whether Rewind has the class it belongs to.
     */
    record Entry(ApiSignature reference, Status status, String how, boolean classPresent) {}

    private final ClassLoader rewind;

    ApiComparison(ClassLoader rewind) {
        this.rewind = rewind;
    }

    Entry classify(ApiSignature reference) {
        Optional<Class<?>> owner = rewindClass(reference.owner());
        if (owner.isEmpty()) {
            return new Entry(reference, Status.ABSENT, "", false);
        }
        Optional<ApiSignature> actual = reference.isClass()
                ? Optional.of(ApiSignature.of(owner.get()))
                : findMember(owner.get(), reference).map(m -> ApiSignature.of(owner.get(), m));
        if (actual.isEmpty()) {
            return new Entry(reference, Status.ABSENT, "", true);
        }
        if (actual.get().line().equals(reference.line())) {
            return new Entry(reference, Status.SAME, "", true);
        }
        return new Entry(reference, Status.DIFFERS, howItDiffers(reference, actual.get()), true);
    }

    /** Rewind's public class of that name ({@code Int2.Data}), if there is one. */
    Optional<Class<?>> rewindClass(String owner) {
        try {
            Class<?> c = Class.forName("mpi." + owner.replace('.', '$'), false, rewind);
            return ApiListing.isApiClass(c) ? Optional.of(c) : Optional.empty();
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    private static Optional<Member> findMember(Class<?> owner, ApiSignature reference) {
        String member = reference.member();
        if (member.startsWith(ApiSignature.CONSTRUCTOR + "(")) {
            return Arrays.stream(owner.getDeclaredConstructors())
                    .filter(ApiSignature::visibleMember)
                    .filter(c -> member.equals(ApiSignature.CONSTRUCTOR + ApiSignature.params(c)))
                    .<Member>map(c -> c)
                    .findFirst();
        }
        boolean isField = !member.contains("(");
        for (Class<?> c : hierarchy(owner)) {
            List<Member> declared = isField ? List.of(c.getDeclaredFields()) : List.of(c.getDeclaredMethods());
            for (Member m : declared) {
                if (ApiSignature.visibleMember(m) && member.equals(memberOf(m))) {
                    return Optional.of(m);
                }
            }
        }
        return Optional.empty();
    }

    private static String memberOf(Member m) {
        return m instanceof Method method ? method.getName() + ApiSignature.params(method) : m.getName();
    }

    /** The class, its superclasses, then the interfaces of all of them: the order Java resolves names. */
    private static List<Class<?>> hierarchy(Class<?> c) {
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            classes.add(k);
        }
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>();
        classes.forEach(k -> todo.addAll(List.of(k.getInterfaces())));
        while (!todo.isEmpty()) {
            Class<?> i = todo.poll();
            if (interfaces.add(i)) {
                todo.addAll(List.of(i.getInterfaces()));
            }
        }
        classes.addAll(interfaces);
        return classes;
    }

    /** Whether {@code rewindMember}, declared by Rewind in {@code owner}, also exists in Open MPI there. */
    boolean isInReference(Class<?> owner, ApiSignature rewindMember, List<ApiSignature> reference) {
        if (overridesObject(rewindMember)) {
            return true; // toString and the like: every Java class has them, Open MPI's too
        }
        for (ApiSignature r : reference) {
            if (r.isClass() || !r.member().equals(rewindMember.member())) {
                continue;
            }
            // Open MPI may declare it on a subclass of the class where Rewind puts it (dup on each
            // communicator), or on a superclass that Rewind's class overrides it from (free of Prequest)
            Optional<Class<?>> referenceOwner = rewindClass(r.owner());
            if (referenceOwner.isPresent()
                    && (owner.isAssignableFrom(referenceOwner.get())
                            || referenceOwner.get().isAssignableFrom(owner))) {
                return true;
            }
        }
        return false;
    }

    private static boolean overridesObject(ApiSignature s) {
        return Arrays.stream(Object.class.getMethods())
                .anyMatch(m -> s.member().equals(m.getName() + ApiSignature.params(m)));
    }

    /** Says, in words, how Rewind's signature departs from Open MPI's. */
    static String howItDiffers(ApiSignature openMpi, ApiSignature here) {
        List<String> diffs = new ArrayList<>();
        Set<String> theirs = new HashSet<>(List.of(openMpi.modifiers().split(" ")));
        Set<String> ours = new HashSet<>(List.of(here.modifiers().split(" ")));
        String theirVisibility = theirs.contains("public") ? "public" : "protected";
        String ourVisibility = ours.contains("public") ? "public" : "protected";
        if (!theirVisibility.equals(ourVisibility)) {
            diffs.add(ourVisibility + " (Open MPI: " + theirVisibility + ")");
        }
        for (String m : List.of("static", "abstract", "final")) {
            if (theirs.contains(m) && !ours.contains(m)) {
                diffs.add("not " + m + " (Open MPI: " + m + ")");
            } else if (!theirs.contains(m) && ours.contains(m)) {
                diffs.add(m + " (Open MPI: not " + m + ")");
            }
        }
        if (!openMpi.type().equals(here.type())) {
            String what = openMpi.isClass() ? "is" : openMpi.member().contains("(") ? "returns" : "has type";
            diffs.add(what + " `" + ApiTable.shortTypes(here.type()) + "` (Open MPI: `"
                    + ApiTable.shortTypes(openMpi.type()) + "`)");
        }
        if (!openMpi.tail().equals(here.tail())) {
            diffs.add(describeTail(here) + " (Open MPI: " + describeTail(openMpi) + ")");
        }
        return String.join("; ", diffs);
    }

    private static String describeTail(ApiSignature s) {
        if (s.tail().isEmpty()) {
            return s.isClass() ? "no supertypes" : "throws nothing checked";
        }
        return "`" + ApiTable.shortTypes(s.tail()) + "`";
    }
}
