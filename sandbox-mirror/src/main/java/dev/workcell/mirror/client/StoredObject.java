package dev.workcell.mirror.client;

/** An object as a listing shows it: the key, its size and its ETag (the MD5 of a single-part upload). */
public record StoredObject(String key, long size, String etag) {}
