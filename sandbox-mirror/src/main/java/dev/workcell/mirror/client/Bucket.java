package dev.workcell.mirror.client;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The mirror's one bucket: the few S3 calls it makes, each counted (PUTs and bytes are what a
 * restart must not repeat). Every call throws the SDK's exception on failure; callers retry.
 */
public class Bucket {

  private static final int DELETE_BATCH = 1000;

  private final S3Client s3;
  private final String name;
  private final AtomicLong puts = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  public Bucket(S3Client s3, String name) {
    this.s3 = s3;
    this.name = name;
  }

  public String name() {
    return name;
  }

  public void put(String key, Path content, long size, byte[] md5, Map<String, String> metadata) {
    s3.putObject(b -> b.bucket(name).key(key).contentLength(size).metadata(metadata)
        .contentMD5(java.util.Base64.getEncoder().encodeToString(md5)), RequestBody.fromFile(content));
    puts.incrementAndGet();
    bytes.addAndGet(size);
  }

  /** Every object under {@code prefix}. */
  public void list(String prefix, Consumer<StoredObject> each) {
    String token = null;
    do {
      String next = token;
      ListObjectsV2Response page = s3.listObjectsV2(b -> b.bucket(name).prefix(prefix).continuationToken(next));
      for (S3Object o : page.contents()) {
        each.accept(new StoredObject(o.key(), o.size(), unquote(o.eTag())));
      }
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
  }

  /** The "folders" directly under {@code prefix} (delimiter {@code /}), each ending in {@code /}. */
  public List<String> folders(String prefix) {
    List<String> folders = new ArrayList<>();
    String token = null;
    do {
      ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(name).prefix(prefix).delimiter("/");
      if (token != null) {
        request.continuationToken(token);
      }
      ListObjectsV2Response page = s3.listObjectsV2(request.build());
      page.commonPrefixes().stream().map(CommonPrefix::prefix).forEach(folders::add);
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
    return folders;
  }

  /** Server-side copy to {@code to}, then delete {@code from}: a move that never downloads. */
  public void move(String from, String to) {
    s3.copyObject(b -> b.sourceBucket(name).sourceKey(from).destinationBucket(name).destinationKey(to));
    s3.deleteObject(b -> b.bucket(name).key(from));
  }

  public void delete(List<String> keys) {
    for (int i = 0; i < keys.size(); i += DELETE_BATCH) {
      List<ObjectIdentifier> batch = keys.subList(i, Math.min(keys.size(), i + DELETE_BATCH)).stream()
          .map(k -> ObjectIdentifier.builder().key(k).build()).toList();
      s3.deleteObjects(b -> b.bucket(name).delete(d -> d.objects(batch).quiet(true)));
    }
  }

  public byte[] get(String key) {
    return s3.getObjectAsBytes(b -> b.bucket(name).key(key)).asByteArray();
  }

  public Map<String, String> metadata(String key) {
    return s3.headObject(b -> b.bucket(name).key(key)).metadata();
  }

  public long puts() {
    return puts.get();
  }

  public long bytesUploaded() {
    return bytes.get();
  }

  static String unquote(String etag) {
    return etag == null ? "" : etag.replace("\"", "");
  }

  public static String hex(byte[] digest) {
    return HexFormat.of().formatHex(digest);
  }
}
