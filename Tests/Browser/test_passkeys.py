"""Passkeys in Chromium, with its WebDriver virtual authenticator (CTAP2, a platform
authenticator that keeps discoverable credentials and verifies the user).

Ada signs in with her password, adds a passkey on her account page, signs out, and signs in
again with "Sign in with a passkey": no e-mail, no password. The site is opened as
http://localhost:PORT, since a passkey's relying party ID must be a domain (the storefront's
default is localhost) and browsers count localhost as a secure context.
"""
import unittest

from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

from harness import DEMO_NAME, BrowserTest


class Passkeys(BrowserTest):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.base = cls.base.replace("127.0.0.1", "localhost")
        options = VirtualAuthenticatorOptions()
        options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
        options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
        options.has_resident_key = True
        options.has_user_verification = True
        options.is_user_verified = True
        options.is_user_consenting = True
        cls.browser.add_virtual_authenticator(options)

    def test_add_a_passkey_then_sign_in_with_it_alone(self):
        self.sign_in()
        self.open("/account")
        self.assertEqual(self.find("[data-view=Passkeys] [data-passkey-count]").get_attribute("data-passkey-count"), "0")
        self.submit("form[data-passkey-register] button")
        self.assertIn("Your passkey is added.", self.find(".flash").text)
        self.assertEqual(self.find("[data-view=Passkeys] [data-passkey-count]").get_attribute("data-passkey-count"), "1")
        [credential] = self.browser.get_credentials()
        self.assertTrue(credential.is_resident_credential, "a discoverable passkey: signing in needs no e-mail")
        self.assertEqual(credential.rp_id, "localhost")
        registered_count = credential.sign_count
        self.sign_out()
        self.assertFalse(self.find_all("[data-signed-in-as]"))

        self.open("/login?next=%2Forders")
        self.assertEqual(self.find("#email").get_attribute("value"), "", "nothing typed")
        self.submit("form[data-passkey-sign-in] button")
        self.assertEqual(self.find("[data-signed-in-as]").text, DEMO_NAME)
        self.assertEqual(self.path(), "/orders")
        self.assertGreater(self.browser.get_credentials()[0].sign_count, registered_count, "the authenticator counted the sign-in")
        self.assertEqual(self.console_errors(), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
