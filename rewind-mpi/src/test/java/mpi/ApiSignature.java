package mpi;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One class or member of the {@code mpi} API as a program compiled against it sees it, written as one
 * line of {@code ompi-java-api.txt}:
 *
 * <pre>
 * public class CartComm extends mpi.Intracomm
 * public static final mpi.Intracomm MPI#COMM_WORLD
 * public Op#&lt;init&gt;(mpi.UserFunction,boolean)
 * public static java.lang.String[] MPI#Init(java.lang.String[]) throws mpi.MPIException
 * </pre>
 *
 * <p>The modifiers kept are those that change what a program can write: visibility, {@code static},
 * {@code abstract}, and a field's {@code final}. A method's {@code final} is left out: it only matters
 * to a program that overrides the method, which the bindings do not expect. Types are erased canonical
 * names, so a generic method is compared by what it returns after erasure.
 *
 * @param modifiers visibility and the other kept modifiers, in Java's order ({@code public static})
 * @param type a member's type or return type; {@code class} or {@code interface} for a class; empty
 *     for a constructor
 * @param key {@code Owner#name(params)}, {@code Owner#name} for a field, {@code Owner} for a class;
 *     nested classes are {@code Outer.Inner}
 * @param tail {@code throws ...} of a method or constructor, {@code extends ... implements ...} of a
 *     class; may be empty
 */
record ApiSignature(String modifiers, String type, String key, String tail) {

    static final String CONSTRUCTOR = "<init>";

    boolean isClass() {
        return type.equals("class") || type.equals("interface");
    }

    /** The class this member belongs to (the class itself for a class line). */
    String owner() {
        int hash = key.indexOf('#');
        return hash < 0 ? key : key.substring(0, hash);
    }

    /** The member's name and parameters, {@code name(params)} or {@code name}; empty for a class. */
    String member() {
        int hash = key.indexOf('#');
        return hash < 0 ? "" : key.substring(hash + 1);
    }

    /** The member's name without parameters: what a note may name to cover every overload. */
    String memberName() {
        String member = member();
        int paren = member.indexOf('(');
        return paren < 0 ? member : member.substring(0, paren);
    }

    String line() {
        return String.join(" ", nonEmpty(modifiers, type, key, tail));
    }

    /** Reads a line written by {@link #line()}. */
    static ApiSignature parse(String line) {
        List<String> words = List.of(line.trim().split(" +"));
        int keyAt = -1;
        for (int i = 0; i < words.size() && keyAt < 0; i++) {
            String word = words.get(i);
            boolean classKey = i > 0
                    && (words.get(i - 1).equals("class") || words.get(i - 1).equals("interface"));
            if (word.contains("#") || classKey) {
                keyAt = i;
            }
        }
        if (keyAt < 0) {
            throw new IllegalArgumentException("no Owner#member or class name in: " + line);
        }
        List<String> before = words.subList(0, keyAt);
        int typeAt = before.size() - 1;
        while (typeAt >= 0 && isModifier(before.get(typeAt))) {
            typeAt--;
        }
        String type = typeAt < 0 ? "" : before.get(typeAt);
        String modifiers = String.join(" ", before.subList(0, Math.max(typeAt, 0)));
        if (typeAt < 0) {
            modifiers = String.join(" ", before);
        }
        String tail = String.join(" ", words.subList(keyAt + 1, words.size()));
        return new ApiSignature(modifiers, type, words.get(keyAt), tail);
    }

    private static boolean isModifier(String word) {
        return switch (word) {
            case "public", "protected", "static", "abstract", "final" -> true;
            default -> false;
        };
    }

    static ApiSignature of(Class<?> c) {
        String kind = c.isInterface() ? "interface" : "class";
        String modifiers = visibility(c.getModifiers());
        if (!c.isInterface() && Modifier.isAbstract(c.getModifiers())) {
            modifiers += " abstract";
        }
        List<String> tail = new ArrayList<>();
        if (c.getSuperclass() != null && c.getSuperclass() != Object.class) {
            tail.add("extends " + name(c.getSuperclass()));
        }
        if (c.getInterfaces().length > 0) {
            tail.add((c.isInterface() ? "extends " : "implements ") + names(c.getInterfaces()));
        }
        return new ApiSignature(modifiers, kind, ownerName(c), String.join(" ", tail));
    }

    /** Describes a member as seen through class {@code owner} (which may inherit it). */
    static ApiSignature of(Class<?> owner, Member m) {
        String modifiers = visibility(m.getModifiers());
        if (Modifier.isStatic(m.getModifiers())) {
            modifiers += " static";
        }
        return switch (m) {
            case Field f -> {
                String fieldModifiers = Modifier.isFinal(f.getModifiers()) ? modifiers + " final" : modifiers;
                yield new ApiSignature(fieldModifiers, name(f.getType()), ownerName(owner) + "#" + f.getName(), "");
            }
            case Method method -> {
                String methodModifiers =
                        Modifier.isAbstract(method.getModifiers()) ? modifiers + " abstract" : modifiers;
                yield new ApiSignature(
                        methodModifiers,
                        name(method.getReturnType()),
                        ownerName(owner) + "#" + method.getName() + params(method),
                        throwsClause(method));
            }
            case Constructor<?> constructor -> new ApiSignature(
                    modifiers,
                    "",
                    ownerName(owner) + "#" + CONSTRUCTOR + params(constructor),
                    throwsClause(constructor));
            default -> throw new IllegalArgumentException("not a field, method or constructor: " + m);
        };
    }

    /** A class's name inside package {@code mpi}: {@code Comm}, {@code Int2.Data}. */
    static String ownerName(Class<?> c) {
        return c.getCanonicalName().substring(c.getPackageName().length() + 1);
    }

    /** Whether a program outside package {@code mpi} can use the member (public, or protected from a subclass). */
    static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    static boolean visibleMember(Member m) {
        boolean generated = m.isSynthetic() || (m instanceof Method method && method.isBridge());
        return visible(m.getModifiers()) && !generated;
    }

    static String params(Executable e) {
        return "("
                + Arrays.stream(e.getParameterTypes()).map(ApiSignature::name).collect(Collectors.joining(",")) + ")";
    }

    private static String throwsClause(Executable e) {
        Class<?>[] thrown = Arrays.stream(e.getExceptionTypes())
                .filter(t -> !RuntimeException.class.isAssignableFrom(t) && !Error.class.isAssignableFrom(t))
                .toArray(Class<?>[]::new);
        return thrown.length == 0 ? "" : "throws " + names(thrown);
    }

    private static String visibility(int modifiers) {
        return Modifier.isPublic(modifiers) ? "public" : Modifier.isProtected(modifiers) ? "protected" : "";
    }

    private static String name(Class<?> c) {
        return c.getCanonicalName();
    }

    private static String names(Class<?>[] classes) {
        return Arrays.stream(classes).map(ApiSignature::name).sorted().collect(Collectors.joining(","));
    }

    private static List<String> nonEmpty(String... parts) {
        return Arrays.stream(parts).filter(p -> !p.isEmpty()).toList();
    }
}
