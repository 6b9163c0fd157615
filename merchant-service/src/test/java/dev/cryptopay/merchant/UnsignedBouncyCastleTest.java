package dev.cryptopay.merchant;

import dev.cryptopay.support.testing.SignatureFiles;
import org.bouncycastle.crypto.Digest;
import org.junit.jupiter.api.Test;

/** The build strips every signature file of Bouncy Castle's jar, so that the JVM does not check them at each start. */
class UnsignedBouncyCastleTest {

    @Test
    void everySignatureFileOfTheJarOnTheClassPathIsRemovedByTheBuild() {
        SignatureFiles.assertBuildRemovesAll(Digest.class, "org.bouncycastle:bcprov-jdk18on");
    }
}
