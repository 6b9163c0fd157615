package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A development chain of deploy/local/anvil.sh is saved across down/up, and still links after restarts: anvil builds
 * the genesis block again when it loads a saved chain, stamped with the time of that start unless it is told the
 * chain's own, and saves it with the chain; after a few restarts block 1 named a block 0 the node no longer served. A
 * payment watcher reading from block 0 (a fresh transaction database) found the chain broken at block 1 at every pass
 * and never detected an ethereum payment. An instance of its own on a port of its own, removed afterwards.
 */
class AnvilChainTest {

    static final String NAME = "chain-check";
    static final int PORT = 18745;
    static final ObjectMapper JSON = new ObjectMapper();

    @AfterEach
    void remove() {
        anvil("reset"); // stops the instance and deletes its directory
    }

    @Test
    void aSavedChainKeepsItsGenesisBlockAcrossARestart() throws Exception {
        anvil("up");
        String genesis = block(0).path("hash").asText();
        assertEquals(genesis, block(1).path("parentHash").asText(), "block 1 (the test token) follows block 0");

        // Each load adds the block 0 it builds to the chain saved at the next stop; from the second restart on, the
        // node served one of several blocks 0, not always the chain's own.
        for (int restart = 1; restart <= 3; restart++) {
            anvil("down");
            Thread.sleep(1_500); // a genesis block built again is stamped in whole seconds: restart in a later one
            anvil("up");

            assertEquals(genesis, block(0).path("hash").asText(), "block 0 after restart " + restart);
            assertEquals(genesis, block(1).path("parentHash").asText(),
                    "block 1 still names block 0 as its parent after restart " + restart);
        }
    }

    private static void anvil(String action) {
        Repo.Result result = action.equals("up")
                ? Repo.run(Repo.command("deploy/local/anvil.sh", "up", NAME, String.valueOf(PORT)))
                : Repo.run(Repo.command("deploy/local/anvil.sh", action, NAME));
        assertEquals(0, result.exitCode(), "anvil.sh " + action + ": " + result.stdout() + result.stderr());
    }

    private static JsonNode block(long number) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getBlockByNumber\",\"params\":[\"0x"
                + Long.toHexString(number) + "\",false]}";
        HttpResponse<String> answer = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PORT))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode block = JSON.readTree(answer.body()).path("result");
        assertFalse(block.isMissingNode() || block.isNull(), "block " + number + ": " + answer.body());
        return block;
    }
}
