package dev.cryptopay.subscription.service;

import dev.cryptopay.support.paging.PageRequest;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One filtered, paginated JPQL listing, newest first and stable for ties ({@code createdAt desc, id desc}), used by
 * the three list endpoints. Conditions are added only for the filters a request carries.
 */
public final class Listing<T> {

    private final Class<T> entity;
    private final List<String> conditions = new ArrayList<>();
    private final Map<String, Object> parameters = new LinkedHashMap<>();
    private final String order;

    private Listing(Class<T> entity, String order) {
        this.entity = entity;
        this.order = order;
    }

    public static <T> Listing<T> of(Class<T> entity) {
        return new Listing<>(entity, "e.createdAt desc, e.id desc");
    }

    public static <T> Listing<T> of(Class<T> entity, String order) {
        return new Listing<>(entity, order);
    }

    /** Adds {@code e.<property> <operator> :<name>} when {@code value} is not null. */
    public Listing<T> where(String property, String operator, Object value) {
        if (value != null) {
            String name = "p" + parameters.size();
            conditions.add("e." + property + " " + operator + " :" + name);
            parameters.put(name, value);
        }
        return this;
    }

    public Listing<T> where(String property, Object value) {
        return where(property, "=", value);
    }

    public record Page<T>(List<T> items, long totalCount) {
    }

    public Page<T> fetch(EntityManager em, PageRequest page) {
        String where = conditions.isEmpty() ? "" : " where " + String.join(" and ", conditions);
        TypedQuery<Long> count = em.createQuery("select count(e) from " + entity.getSimpleName() + " e" + where,
                Long.class);
        parameters.forEach(count::setParameter);
        long total = count.getSingleResult();
        if (page.offset() >= total || page.offset() > Integer.MAX_VALUE) {
            return new Page<>(List.of(), total);
        }
        TypedQuery<T> query = em.createQuery("from " + entity.getSimpleName() + " e" + where + " order by " + order,
                entity);
        parameters.forEach(query::setParameter);
        query.setFirstResult((int) page.offset()).setMaxResults(page.limit());
        return new Page<>(query.getResultList(), total);
    }
}
