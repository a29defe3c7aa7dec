package dev.workcell.gateway.openterminal.service;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContentDispositionTest {

  @Test
  void nonAsciiNamesTravelAsUtf8BesideAnAsciiFallback() {
    assertThat(ContentDisposition.attachment("site.zip")).isEqualTo("attachment; filename=\"site.zip\"");
    assertThat(ContentDisposition.attachment("données \"x\".zip"))
        .isEqualTo("attachment; filename=\"donn_es _x_.zip\"; filename*=UTF-8''donn%C3%A9es%20%22x%22.zip");
  }
}
