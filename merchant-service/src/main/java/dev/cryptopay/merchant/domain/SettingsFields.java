package dev.cryptopay.merchant.domain;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a settings record says about its own fields, so no list of field names is kept beside it: the JSON fields it
 * has (its components, those of an {@link JsonUnwrapped} component in its place), which of them are
 * {@link Settings.OperatorOnly}, and the partial update ("only the fields sent change") of one record by another.
 */
public final class SettingsFields {

    private SettingsFields() {
    }

    /** Every JSON field name of {@code type}, in declaration order. */
    public static Set<String> names(Class<? extends Record> type) {
        Set<String> names = new LinkedHashSet<>();
        for (RecordComponent c : type.getRecordComponents()) {
            if (unwrapped(c)) {
                names.addAll(names(recordType(c)));
            } else {
                names.add(c.getName());
            }
        }
        return names;
    }

    /** The JSON field names of {@code type} that only the operator sets. */
    public static Set<String> operatorOnly(Class<? extends Record> type) {
        Set<String> names = new LinkedHashSet<>();
        for (RecordComponent c : type.getRecordComponents()) {
            if (c.isAnnotationPresent(Settings.OperatorOnly.class)) {
                names.add(c.getName());
            }
        }
        return names;
    }

    /**
     * {@code current} with the value of {@code changes} for every field named in {@code present} (a null there clears
     * the field); every other field keeps its current value.
     */
    public static <R extends Record> R merge(R current, R changes, Set<String> present) {
        @SuppressWarnings("unchecked")
        Class<R> type = (Class<R>) current.getClass();
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            Object now = value(c, current);
            Object changed = value(c, changes);
            if (unwrapped(c) && now instanceof Record nowRecord
                    && changed instanceof Record changedRecord) {
                values[i] = merge(nowRecord, changedRecord, present);
            } else {
                values[i] = present.contains(c.getName()) ? changed : now;
            }
        }
        try {
            Constructor<R> canonical = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            return canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot rebuild " + type.getSimpleName(), e);
        }
    }

    /** {@code @JsonUnwrapped} does not target record components: Java puts it on the accessor (and the field). */
    private static boolean unwrapped(RecordComponent c) {
        return c.getAccessor().isAnnotationPresent(JsonUnwrapped.class);
    }

    /** The value of one component of a settings record (read through its accessor). */
    public static Object value(RecordComponent c, Record record) {
        try {
            return c.getAccessor().invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("Cannot read " + c.getName(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends Record> recordType(RecordComponent c) {
        if (!c.getType().isRecord()) {
            throw new IllegalStateException(c.getName() + " is unwrapped but not a record");
        }
        return (Class<? extends Record>) c.getType();
    }
}
