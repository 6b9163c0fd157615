package dev.cryptopay.support.paging;

/**
 * The {@code metadata} object of every paginated list: items across all pages, items in this page, the
 * 1-based page number and the page size used (after clamping).
 */
public record PageMetadata(long totalCount, int count, int page, int pageSize) {
}
