package dev.workcell.task.provider;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** An admin-configured model provider; the API key only as AES-256-GCM ciphertext and nonce. */
@Entity
@Table(name = "providers")
public class ProviderEntity extends PanacheEntityBase {

  @Id
  public String id;

  @Column(nullable = false)
  public String kind;

  @Column(name = "base_url", nullable = false)
  public String baseUrl;

  @Column(name = "api_key_ciphertext")
  public byte[] apiKeyCiphertext;

  @Column(name = "api_key_nonce")
  public byte[] apiKeyNonce;

  /** A JSON array of model ids; empty means any model. */
  @Column(nullable = false)
  public String models;

  @Column(name = "created_at", nullable = false)
  public OffsetDateTime createdAt;

  @Column(name = "updated_at", nullable = false)
  public OffsetDateTime updatedAt;

  public boolean hasApiKey() {
    return apiKeyCiphertext != null;
  }
}
