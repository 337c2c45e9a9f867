import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  configurationIdOf,
  permissionsOfRoles,
  type RequestData,
  type RequestRecipient,
  richTextFromParagraphs,
  type SmartFormQuestion,
} from '@dossier/core';
import type { Config } from '../config.js';
import * as recipients from '../features/recipients/repository.js';
import { countRequests } from '../features/wizard/createRepository.js';
import { submitRequest } from '../features/wizard/createRequest.js';
import * as fileRepo from '../files/repository.js';
import { createS3Storage } from '../files/s3Storage.js';
import type { FilesContext } from '../files/service.js';
import { loadSecret } from '../files/signing.js';
import { createLocalStorage } from '../files/storage.js';
import type { Actor } from '../http/actor.js';
import type { DbOrTrx, Trx } from './database.js';

// The demo's request item types (on the root configuration, so both sender organisations offer
// them) and a dozen requests of Acme and Globex, submitted through the wizard's own code so they
// carry numbers, events and an authority file like any other.

const question = (
  id: string,
  text: string,
  answerType: SmartFormQuestion['answerType'],
  extra: Partial<SmartFormQuestion> = {},
): SmartFormQuestion => ({
  id,
  name: text,
  richText: richTextFromParagraphs(text),
  answerType,
  nestedForm: [],
  tableColumns: [],
  ...extra,
});

export const DEMO_ITEM_TYPES = [
  {
    id: 'recordPeriod',
    type: 'smartFormOptionEntry',
    name: 'Record period',
    order: 200,
    data: { foreignId: '' },
  },
  { id: 'recordPeriod:last5Years', type: 'smartFormOptionEntry', name: 'Last 5 years', order: 1, data: {} },
  { id: 'recordPeriod:last10Years', type: 'smartFormOptionEntry', name: 'Last 10 years', order: 2, data: {} },
  { id: 'recordPeriod:all', type: 'smartFormOptionEntry', name: 'All records', order: 3, data: {} },
  {
    id: 'itemGeneralPractice',
    type: 'requestItemTypeEntry',
    name: 'Medical records — general practice',
    order: 210,
    data: {
      smartForm: [
        question('consultationNotes', 'Include consultation notes?', 'yesOrNo'),
        question('period', 'Period of records', 'option', { optionRange: 'recordPeriod' }),
        question('treatingDoctor', 'Name of the treating doctor', 'freeText'),
      ],
      submitterSuppliedFields: [{ id: 'patientId', name: 'Practice patient ID', maxLength: 20 }],
    },
  },
  {
    id: 'itemDischargeSummary',
    type: 'requestItemTypeEntry',
    name: 'Hospital discharge summary',
    order: 211,
    data: {
      fieldSets: [
        {
          id: 'admission',
          name: 'Admission',
          fields: [
            { id: 'admittedOn', name: 'Admitted on', type: 'singleLineText', maxLength: 10 },
            { id: 'ward', name: 'Ward', type: 'singleLineText', maxLength: 40 },
          ],
        },
      ],
    },
  },
  {
    id: 'itemSpecialistReport',
    type: 'requestItemTypeEntry',
    name: 'Specialist report',
    order: 212,
    data: {
      smartForm: [
        question('specialty', 'Specialty', 'freeText'),
        question('questions', 'Questions for the specialist', 'freeTextMultiLine'),
      ],
    },
  },
];

/** Adds the demo item types to the root configuration (ROOT entries are their parents). */
export async function seedDemoItemTypes(db: DbOrTrx): Promise<void> {
  const configurationId = configurationIdOf('/');
  await db
    .insertInto('configuration_entries')
    .values(
      DEMO_ITEM_TYPES.map((e) => ({
        configuration_id: configurationId,
        id: e.id,
        parent_id: e.id.includes(':') ? e.id.slice(0, e.id.lastIndexOf(':')) : 'c',
        type: e.type,
        name: e.name,
        order: e.order,
        is_default: false,
        data: JSON.stringify(e.data),
      })),
    )
    .execute();
}

const AUTHORITY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

const APPLICANTS = [
  ['Olivia Chen', '1984-03-12', 'POL-20411'],
  ['Liam Walker', '1979-11-02', 'POL-20412'],
  ['Charlotte Nguyen', '1991-06-25', 'CLM-88120'],
  ['Noah Patel', '1968-01-30', 'CLM-88121'],
  ['Amelia Roberts', '2001-09-14', 'POL-20418'],
  ['Jack Thompson', '1955-12-08', 'CLM-88125'],
] as const;

// Each demo recipient is one directory entry of the root (shared by both organisations), which the
// requests choose; typed in with every request they became four identical entries each.
const RECIPIENTS = [
  {
    name: 'Harbourside Medical Centre',
    phone: '+61292470000',
    email: 'records@harbourside.example',
    streetAddress: '12 Circular Quay West\nSydney NSW 2000',
    postalAddress: 'PO Box 120\nSydney NSW 2001',
    kind: 'doctor',
    region: 'nsw',
  },
  {
    name: 'St Vincent Private Hospital',
    phone: '+61293821111',
    email: 'hin@stvincent.example',
    streetAddress: '406 Victoria Street\nDarlinghurst NSW 2010',
    postalAddress: 'Locked Bag 7\nDarlinghurst NSW 1300',
    kind: 'hospital',
    region: 'nsw',
  },
  {
    name: 'Dr Priya Raman, Orthopaedics',
    phone: '+61731250000',
    email: 'reception@raman-ortho.example',
    streetAddress: '88 Wickham Terrace\nSpring Hill QLD 4000',
    postalAddress: null,
    kind: 'doctor',
    region: 'qld',
  },
] as const;

async function seedDirectoryRecipients(db: DbOrTrx) {
  const chosen: RequestRecipient[] = [];
  for (const { kind, region, ...r } of RECIPIENTS) {
    const data: recipients.RecipientData = {
      disabled: false,
      ...r,
      fax: null,
      webSiteUrl: null,
      country: 'AU',
      notes: null,
      tags: { kind: { value: kind }, region: { value: region } },
      attachments: [],
      contacts: [],
    };
    const recipientId = await recipients.insertRecipient(db, data, null, '/');
    chosen.push({
      ...r,
      recipientId,
      version: 1,
      country: 'AU',
      attachments: [],
      tags: { kind, region },
      contacts: [],
    });
  }
  return chosen;
}

const ITEMS = ['itemGeneralPractice', 'itemDischargeSummary', 'itemSpecialistReport'];

function seedActor(id: string, name: string, scope: string): Actor {
  const roles = [{ role: 'c:roles:submitter', scope }];
  return {
    id,
    name,
    email: `${id}@dossier.example`,
    locale: 'en-au',
    countryCode: 'AU',
    scope,
    roles,
    permissions: permissionsOfRoles(roles.map((r) => r.role)),
    sessionId: 'seed',
  } as Actor;
}

async function storeAuthority(files: FilesContext, db: DbOrTrx, actor: Actor, name: string) {
  const key = randomBytes(16).toString('base64url');
  await files.storage.write(key, Readable.from([AUTHORITY_PDF]));
  await fileRepo.insertFile(db, {
    key,
    name,
    contentType: 'application/pdf',
    size: AUTHORITY_PDF.length,
    publicRead: false,
    createdBy: actor.id,
  });
  await fileRepo.markUploaded(db, key, {
    size: AUTHORITY_PDF.length,
    sha256: null,
    contentType: 'application/pdf',
  });
  return { key, name };
}

/** Twelve demo requests, six for each sender organisation; nothing when requests exist already. */
export async function seedDemoRequests(db: Trx, config: Config): Promise<void> {
  if ((await countRequests(db)) > 0) return;
  const files: FilesContext = {
    db: db as FilesContext['db'],
    storage: config.files.s3 ? createS3Storage(config.files.s3) : createLocalStorage(config.files.dir),
    secret: await loadSecret(db as FilesContext['db'], 'files.uploadSigning'),
    maxBytes: config.files.maxBytes,
  };
  const senders = [
    seedActor('submitter', 'Sam Submitter', '/org/acme/'),
    seedActor('globex', 'Gale Globex', '/org/globex/'),
  ];
  const now = Date.now();
  const directory = await seedDirectoryRecipients(db);
  for (let i = 0; i < 12; i++) {
    // Indexes stay in range: two senders, six applicants for twelve requests, the rest modulo length.
    const actor = senders[i % 2]!;
    const [name, dateOfBirth, reference1] = APPLICANTS[Math.floor(i / 2)]!;
    const recipient = directory[i % directory.length];
    if (!recipient) throw new Error('Seeding: the recipient directory is empty.');
    const itemId = ITEMS[i % ITEMS.length]!;
    const authority = await storeAuthority(
      files,
      db,
      actor,
      `authority-${name.split(' ')[1]!.toLowerCase()}.pdf`, // every applicant has a surname
    );
    const data: RequestData = {
      sender: {
        organization: actor.scope,
        referenceNumber: reference1,
        externalUserReferences: i === 0 ? ['ADV-1001'] : [],
      },
      applicant: {
        name,
        dateOfBirth,
        country: 'AU',
        authority,
        reference1,
        reference1Type: reference1.startsWith('POL') ? 'policyNumber' : 'claimNumber',
        tags: {},
      },
      recipient,
      content: {
        itemTypes: [
          {
            id: itemId,
            smartFormAnswers:
              itemId === 'itemGeneralPractice'
                ? { consultationNotes: 'yes', period: 'recordPeriod:last5Years', treatingDoctor: 'Dr Ellis' }
                : {},
            excludedQuestions: [],
            submitterSuppliedFields: {},
            fieldSets: {},
            fieldSetFiles: {},
            files: [],
          },
        ],
        additionalQuestions: [],
        additionalInstructions: i % 3 === 0 ? 'Please send the records electronically.' : null,
        additionalFiles: [],
      },
      tags: {},
    };
    // Spread over the last weeks, so lists and KPIs have something to show.
    const submittedAt = new Date(now - (12 - i) * 2.5 * 86_400_000);
    await submitRequest(db, { files }, actor, data, submittedAt);
  }
}
