"""A forgotten password, in Chromium with JavaScript off: the sign-in page's link, the form that
mails a link, the mail read from the storefront's DATA_DIR/mail, the new password, and then the
proof that it took: every session of the account ended (this browser's too), the new password
signs in, the old one does not, and the link works only once.
"""
import unittest

from harness import DEMO_EMAIL, DEMO_NAME, DEMO_PASSWORD, BrowserTest

NEW_PASSWORD = "difference-engine-1822"


class PasswordResetWithoutJavaScript(BrowserTest):
    javascript = False

    def test_a_shopper_resets_a_forgotten_password_by_mail(self):
        self.sign_in()
        self.open("/login")
        self.submit("a[href='/password/forgot']")
        self.assertEqual(self.path(), "/password/forgot")
        self.type("#email", DEMO_EMAIL)
        self.submit("[data-view=ForgotPassword] button[type=submit]")
        self.assertEqual(self.path(), "/login")
        self.assertIn("a link to choose a new password is on its way", self.find(".flash").text)

        link = self.storefront.reset_links(1)[0]
        self.browser.get(self.base + link[link.index("/password/reset/"):])
        self.assertTrue(self.find_all("[data-view=ResetPassword]"), "the link opens the new password's form")
        self.type("#password", NEW_PASSWORD)
        self.type("#confirm", NEW_PASSWORD)
        self.submit("[data-view=ResetPassword] button[type=submit]")
        self.assertEqual(self.path(), "/login")
        self.assertIn("every device is signed out", self.find(".flash").text)
        self.screenshot("password-reset-done.png")

        self.open("/account")
        self.assertTrue(self.path().startswith("/login?next="), "this browser's session ended with the reset too")
        self.type("#email", DEMO_EMAIL)
        self.type("#password", DEMO_PASSWORD)
        self.submit("[data-view=Login] button[type=submit]")
        self.assertTrue(self.find_all("#password-error"), "the old password no longer signs in")
        self.sign_in(password=NEW_PASSWORD)
        self.assertEqual(self.find("[data-signed-in-as]").text, DEMO_NAME)

        self.browser.get(self.base + link[link.index("/password/reset/"):])
        self.assertTrue(self.find_all("[data-link-dead]"), "a link works once")


if __name__ == "__main__":
    unittest.main(verbosity=2)
