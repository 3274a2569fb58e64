"use client";

import { AuditSection } from "./AuditSection";
import { NetworkSection } from "./NetworkSection";
import { TokensSection } from "./TokensSection";
import { UsersSection } from "./UsersSection";

/** The admin's page: users, API tokens, which private networks crawls may reach, and the audit log. */
export function SettingsPage({ currentEmail }: { currentEmail: string }) {
  return (
    <div className="settings-page">
      <h1>Settings</h1>
      <UsersSection currentEmail={currentEmail} />
      <TokensSection currentEmail={currentEmail} />
      <NetworkSection />
      <AuditSection />
    </div>
  );
}
