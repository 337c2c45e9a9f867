import type { DbOrTrx } from './database.js';

// Demo recipients (doctors, hospitals, agencies) and payees, each with its first version row.

const RECIPIENTS = [
  {
    name: 'Sydney City Hospital',
    phone: '+61293821111',
    fax: '+61293821112',
    email: 'records@sydneycity.example',
    web_site_url: 'https://sydneycity.example',
    street_address: '8 Macquarie St\nSydney NSW 2000',
    kind: 'hospital',
    region: 'nsw',
    contacts: [
      {
        name: 'Priya Patel',
        position: 'Health Information Manager',
        phone: '+61293821113',
        email: 'priya.patel@sydneycity.example',
      },
    ],
  },
  {
    name: 'Dr Lee Medical Practice',
    phone: '+61398761234',
    email: 'reception@drlee.example',
    street_address: '12 Collins St\nMelbourne VIC 3000',
    kind: 'doctor',
    region: 'vic',
    contacts: [
      { name: 'Dr Wen Lee', position: 'General Practitioner', phone: null, email: 'wen.lee@drlee.example' },
    ],
  },
  {
    name: 'Brisbane Imaging',
    phone: '+61731234567',
    email: 'reports@brisimaging.example',
    street_address: '200 Adelaide St\nBrisbane QLD 4000',
    kind: 'agency',
    region: 'qld',
    contacts: [],
  },
];

const PAYEES = [
  {
    name: 'Sydney City Hospital',
    reference_number: 'SCH-0001',
    email: 'accounts@sydneycity.example',
    bank_account: '062-000 1234 5678',
    currency: 'AUD',
    foreign_reference_label: 'Ledger SCH-0001',
    foreign_reference_url: 'https://ledger.example/payees/SCH-0001',
  },
  {
    name: 'Dr Lee Medical Practice',
    reference_number: 'DLM-0002',
    email: 'billing@drlee.example',
    bank_account: '033-000 8765 4321',
    currency: 'AUD',
  },
  {
    name: 'Auckland Records Ltd',
    reference_number: 'ARL-0003',
    email: 'ap@aucklandrecords.example',
    bank_account: '12-3456-7890123-00',
    currency: 'NZD',
  },
];

export async function seedAccounts(db: DbOrTrx): Promise<void> {
  for (const r of RECIPIENTS) {
    const { kind, region, contacts, ...columns } = r;
    const tags = { kind: { value: kind }, region: { value: region } };
    const row = await db
      .insertInto('recipients')
      .values({
        ...columns,
        country: 'AU',
        tags: JSON.stringify(tags),
        contacts: JSON.stringify(contacts),
        attachments: '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const data = {
      disabled: false,
      name: r.name,
      phone: r.phone,
      fax: r.fax ?? null,
      email: r.email,
      webSiteUrl: r.web_site_url ?? null,
      streetAddress: r.street_address,
      postalAddress: null,
      country: 'AU',
      notes: null,
      tags,
      attachments: [],
      contacts,
    };
    await db
      .insertInto('recipient_versions')
      .values({ recipient_id: row.id, version: 1, data: JSON.stringify(data) })
      .execute();
  }
  await db.insertInto('payees').values(PAYEES).execute();
}
